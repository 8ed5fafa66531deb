#pragma once

// Item models printed as text trees for the model tests (as KDAB hotspot's modeltests do): one
// line per row, indented two spaces per level, the row's columns' display texts separated by
// " | ". A test compares the whole tree with the text it expects, so a change of order, nesting,
// label or figure shows as a readable diff.

#include <QAbstractItemModel>
#include <QString>
#include <QStringList>

namespace memscope_test {

inline void dumpRows(const QAbstractItemModel& model, const QModelIndex& parent, int depth,
                     const QList<int>& columns, QStringList& lines) {
    for (int r = 0; r < model.rowCount(parent); ++r) {
        QStringList cells;
        for (int c : columns) {
            cells << model.index(r, c, parent).data(Qt::DisplayRole).toString();
        }
        lines << QString(depth * 2, QLatin1Char(' ')) + cells.join(QStringLiteral(" | "));
        const QModelIndex child = model.index(r, 0, parent);
        if (model.hasChildren(child)) {
            dumpRows(model, child, depth + 1, columns, lines);
        }
    }
}

// The tree of `model` under the root, with the given columns (all when empty).
inline QString dumpModel(const QAbstractItemModel& model, QList<int> columns = {}) {
    if (columns.isEmpty()) {
        for (int c = 0; c < model.columnCount(); ++c) {
            columns << c;
        }
    }
    QStringList lines;
    dumpRows(model, QModelIndex(), 0, columns, lines);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

}  // namespace memscope_test
