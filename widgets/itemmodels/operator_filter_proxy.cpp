#include "itemmodels/operator_filter_proxy.h"

#include "itemmodels/operator_table_model.h"

namespace memscope {

OperatorFilterProxy::OperatorFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent), m_searchRole(OperatorTableModel::SearchTextRole) {
    setSortRole(OperatorTableModel::SortRole);
    setRecursiveFilteringEnabled(true);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void OperatorFilterProxy::setRoles(int sort_role, int search_role) {
    setSortRole(sort_role);
    m_searchRole = search_role;
    invalidateFilter();
}

void OperatorFilterProxy::setSearchText(const QString& text) {
    // A shape ("[8, 128]") is one phrase; anything else is words that must all appear.
    const bool phrase = text.contains(QLatin1Char('[')) || text.contains(QLatin1Char(','));
    const QStringList words =
        phrase ? QStringList{text.trimmed()} : text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words == m_words) {
        return;
    }
    m_words = words;
    invalidateFilter();
}

bool OperatorFilterProxy::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
    if (m_words.isEmpty() || (m_words.size() == 1 && m_words.first().isEmpty())) {
        return true;
    }
    const QAbstractItemModel* source = sourceModel();
    QString text = source->index(source_row, 0, source_parent).data(m_searchRole).toString();
    if (text.isEmpty()) {
        QStringList cells;
        for (int c = 0; c < source->columnCount(source_parent); ++c) {
            cells << source->index(source_row, c, source_parent).data().toString();
        }
        text = cells.join(QLatin1Char('\n'));
    }
    for (const QString& word : m_words) {
        if (!text.contains(word, Qt::CaseInsensitive)) {
            return false;
        }
    }
    return true;
}

bool OperatorFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    const bool numbers = a.canConvert<double>() && b.canConvert<double>() &&
                         a.typeId() != QMetaType::QString && b.typeId() != QMetaType::QString;
    if (numbers) {
        return a.toDouble() < b.toDouble();
    }
    return QString::localeAwareCompare(a.toString(), b.toString()) < 0;
}

}  // namespace memscope
