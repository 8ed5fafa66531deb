#include "itemmodels/module_tree_model.h"

#include "common/byte_format.h"
#include "explain/module_table.h"

namespace memscope {

namespace {

// The ModuleTable column of a byte column of the model (-1 for the others).
int tableColumnOf(int column) {
    switch (column) {
        case ModuleTreeModel::Parameters:
            return ModuleTable::Parameters;
        case ModuleTreeModel::Gradients:
            return ModuleTable::Gradients;
        case ModuleTreeModel::OptimizerState:
            return ModuleTable::OptimizerState;
        case ModuleTreeModel::Activations:
            return ModuleTable::Activations;
        case ModuleTreeModel::Temporaries:
            return ModuleTable::Temporaries;
        case ModuleTreeModel::Backward:
            return ModuleTable::Backward;
        case ModuleTreeModel::Other:
            return ModuleTable::Other;
        default:
            return -1;
    }
}

}  // namespace

ModuleTreeModel::ModuleTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

ModuleTreeModel::~ModuleTreeModel() = default;

void ModuleTreeModel::setTable(std::shared_ptr<const ModuleTable> table) {
    beginResetModel();
    m_table = std::move(table);
    m_tops.clear();
    m_children.clear();
    m_rowOf.clear();
    if (m_table) {
        const auto& rows = m_table->rows();
        m_children.resize(rows.size());
        m_rowOf.resize(rows.size(), 0);
        for (size_t i = 0; i < rows.size(); ++i) {
            const int parent = rows[i].parent;
            auto& siblings =
                parent >= 0 && size_t(parent) < rows.size() ? m_children[size_t(parent)] : m_tops;
            m_rowOf[i] = int(siblings.size());
            siblings.push_back(int(i));
        }
    }
    endResetModel();
}

int ModuleTreeModel::tableRow(const QModelIndex& index) const {
    return index.isValid() ? int(index.internalId()) : -1;
}

QModelIndex ModuleTreeModel::indexOfTableRow(int row, int column) const {
    if (!m_table || row < 0 || size_t(row) >= m_rowOf.size() || column < 0 ||
        column >= ColumnCount) {
        return {};
    }
    return createIndex(m_rowOf[size_t(row)], column, quintptr(row));
}

QModelIndex ModuleTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!m_table || row < 0 || column < 0 || column >= ColumnCount ||
        (parent.isValid() && parent.column() != 0)) {
        return {};
    }
    const auto& siblings = parent.isValid() ? m_children[size_t(tableRow(parent))] : m_tops;
    if (size_t(row) >= siblings.size()) {
        return {};
    }
    return createIndex(row, column, quintptr(siblings[size_t(row)]));
}

QModelIndex ModuleTreeModel::parent(const QModelIndex& child) const {
    if (!m_table || !child.isValid()) {
        return {};
    }
    return indexOfTableRow(m_table->rows()[size_t(tableRow(child))].parent);
}

int ModuleTreeModel::rowCount(const QModelIndex& parent) const {
    if (!m_table || (parent.isValid() && parent.column() != 0)) {
        return 0;
    }
    return int(parent.isValid() ? m_children[size_t(tableRow(parent))].size() : m_tops.size());
}

int ModuleTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

qint64 ModuleTreeModel::value(int row, int column) const {
    const ModuleTable::Row& r = m_table->rows()[size_t(row)];
    switch (column) {
        case Held:
            return r.held();
        case ForwardPeak:
            return r.forward_peak;
        case BackwardPeak:
            return r.backward_peak;
        case SavedForBackward:
            return r.saved_for_backward;
        default: {
            const int c = tableColumnOf(column);
            return c >= 0 ? r.total[size_t(c)] : 0;
        }
    }
}

QVariant ModuleTreeModel::data(const QModelIndex& index, int role) const {
    if (!m_table || !index.isValid()) {
        return {};
    }
    const int row = tableRow(index);
    const ModuleTable::Row& r = m_table->rows()[size_t(row)];
    const bool none = r.path.empty();
    switch (role) {
        case TableRowRole:
            return row;
        case PathRole:
            return QString::fromStdString(r.path);
        case Qt::TextAlignmentRole:
            return index.column() == Module ? QVariant()
                                            : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
        case Qt::ToolTipRole: {
            if (index.column() != Module) {
                return tr("%1 bytes").arg(exactBytes(value(row, index.column())));
            }
            if (none) {
                return tr(
                    "Allocations no module is named for: the input batch, a loss computed "
                    "outside the model, the optimizer's temporaries and the like");
            }
            int64_t self = 0;
            for (int64_t b : r.self) {
                self += b;
            }
            return tr("%1\nHeld by its own allocations (sub-modules left out): %2")
                .arg(QString::fromStdString(r.path), bytesText(self));
        }
        case Qt::DisplayRole:
            if (index.column() == Module) {
                return none ? tr("(no module)") : QString::fromStdString(r.name);
            }
            return bytesText(value(row, index.column()));
        case SortRole:
            if (index.column() == Module) {
                return none ? QString() : QString::fromStdString(r.name);
            }
            return value(row, index.column());
        default:
            return {};
    }
}

QVariant ModuleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        return section == Module ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case Module:
                return tr(
                    "The module path, each sub-module under its parent; the figures "
                    "include the sub-modules'. Click a row to highlight its allocations on "
                    "the timeline.");
            case Held:
                return tr(
                    "Bytes the module holds at the moment shown, in all the columns to "
                    "its right up to Other");
            case Parameters:
                return tr("Its parameters' storage");
            case Gradients:
                return tr("Its parameters' gradients");
            case OptimizerState:
                return tr("Optimizer state kept for its parameters (moments and the like)");
            case Activations:
                return tr(
                    "Made in its forward and still alive: mostly what autograd saved for "
                    "the backward");
            case Temporaries:
                return tr("Short-lived temporary buffers it made outside the backward");
            case Backward:
                return tr("The buffers of its backward, gradients left out");
            case Other:
                return tr(
                    "The rest: inputs, communication buffers, memory alive before the "
                    "recording");
            case ForwardPeak:
                return tr("Over the whole run, the most its forward added at once");
            case BackwardPeak:
                return tr("Over the whole run, the most its backward added at once");
            case SavedForBackward:
                return tr(
                    "In the step shown, bytes its forward made that were still alive when "
                    "the backward began");
            default:
                return {};
        }
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case Module:
            return tr("Module");
        case Held:
            return tr("Held");
        case Parameters:
            return tr("Parameters");
        case Gradients:
            return tr("Gradients");
        case OptimizerState:
            return tr("Optimizer state");
        case Activations:
            return tr("Activations");
        case Temporaries:
            return tr("Temporaries");
        case Backward:
            return tr("Backward");
        case Other:
            return tr("Other");
        case ForwardPeak:
            return tr("Forward peak");
        case BackwardPeak:
            return tr("Backward peak");
        case SavedForBackward:
            return tr("Saved for backward");
        default:
            return {};
    }
}

}  // namespace memscope
