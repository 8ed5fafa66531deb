#pragma once

#include <QSortFilterProxyModel>

namespace memscope {

// Sorting and searching for the operator table (and the allocation lists): sorts on the source's
// SortRole (raw numbers, so "9 MiB" comes before "10 MiB"), keeps the rows whose search text
// (SearchTextRole of column 0, or every column's text when the source has none) contains the
// search words, case-insensitively, and keeps the parents of matching rows in a tree.
class OperatorFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT

  public:
    explicit OperatorFilterProxy(QObject* parent = nullptr);

    // Space-separated words that must all appear, or one phrase when the text holds a bracket
    // or a comma (an input shape such as "[8, 128, 256]"); empty shows everything.
    void setSearchText(const QString& text);
    QString searchText() const { return m_words.join(QLatin1Char(' ')); }
    // The roles to sort on and search in (the operator model's by default).
    void setRoles(int sort_role, int search_role);

  protected:
    bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

  private:
    QStringList m_words;
    int m_searchRole;
};

}  // namespace memscope
