#pragma once

#include <QMap>
#include <QString>

class QLabel;
class QWidget;

namespace memscope {

// Figures shown as "Name: value" rows of form layouts and found by key (the summary page's
// boxes): each key names one row, its name label and its value label, which the mouse can
// select. The labels belong to the widgets they are added to.
class FigureForm {
  public:
    // Adds the row `key` to `form`, whose layout is a QFormLayout; returns its value label.
    QLabel* add(QWidget* form, const QString& key);
    // The value of `key`, its tool tip with it; nothing for an unknown key.
    void set(const QString& key, const QString& text, const QString& tool_tip = {});
    // Sets the names of the rows from (key, name) pairs.
    template <typename Names>
    void setNames(const Names& names) {
        for (const auto& [key, text] : names) {
            setName(QLatin1String(key), text);
        }
    }
    void setName(const QString& key, const QString& text);
    // Empties every value.
    void clear();
    // The text of a value ("" for an unknown key), its name label and its value label.
    QString text(const QString& key) const;
    QLabel* name(const QString& key) const { return m_names.value(key); }
    QLabel* value(const QString& key) const { return m_values.value(key); }

  private:
    QMap<QString, QLabel*> m_names;
    QMap<QString, QLabel*> m_values;
};

}  // namespace memscope
