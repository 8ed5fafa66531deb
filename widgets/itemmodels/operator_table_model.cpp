#include "itemmodels/operator_table_model.h"

#include "common/byte_format.h"

#include "run/run_summary.h"
#include "trace/trace.h"

#include <QLocale>

#include <algorithm>

namespace memscope {

namespace {

QString flopsText(double flops) {
    static const char* const units[] = {"", "K", "M", "G", "T", "P"};
    int u = 0;
    while (flops >= 1000.0 && u < 5) {
        flops /= 1000.0;
        ++u;
    }
    return QStringLiteral("%1 %2FLOP")
        .arg(QLocale().toString(flops, 'f', u == 0 ? 0 : 2), QLatin1String(units[u]));
}

}  // namespace

OperatorTableModel::OperatorTableModel(QObject* parent) : QAbstractItemModel(parent) {}

OperatorTableModel::~OperatorTableModel() = default;

void OperatorTableModel::setTable(std::shared_ptr<const Trace> trace,
                                  std::shared_ptr<const OperatorTable> table) {
    beginResetModel();
    m_trace = trace && table ? std::move(trace) : nullptr;
    m_table = m_trace ? std::move(table) : nullptr;
    rebuildFilter();
    rebuildPositions();
    endResetModel();
}

void OperatorTableModel::setRangeFilter(const std::optional<RangeFilter>& filter) {
    if (filter == m_filter) {
        return;
    }
    beginResetModel();
    m_filter = filter;
    rebuildFilter();
    rebuildPositions();
    endResetModel();
}

void OperatorTableModel::rebuildFilter() {
    m_pass.clear();
    m_filterInside.clear();
    m_filterSelf.clear();
    m_filterLive.clear();
    m_filterChildren.clear();
    m_filterTop.clear();
    m_filterCalls = {};
    if (!m_table || !m_filter) {
        return;
    }
    m_filterCalls = m_table->callsIn(*m_trace, *m_filter);
    const auto& allocations = m_trace->allocations();
    m_pass = m_filter->mask(*m_trace);
    const size_t rows = m_table->rows().size();
    m_filterInside.assign(rows, 0);
    m_filterSelf.assign(rows, 0);
    m_filterLive.assign(rows, 0);
    m_filterChildren.resize(rows);
    std::vector<int64_t> self_count(rows, 0);
    for (size_t r = 0; r < rows; ++r) {
        for (int64_t a : m_table->rows()[r].allocations) {
            if (m_pass[size_t(a)]) {
                const Allocation& alloc = allocations[size_t(a)];
                ++self_count[r];
                m_filterSelf[r] += alloc.size;
                if (alloc.free_event < 0 || alloc.free_event >= m_filter->last) {
                    m_filterLive[r] += alloc.size;
                }
            }
        }
    }
    // Inside a row: by operator, the table's own lists (nested operators' allocations); in the
    // module tree, the row's and its children's, summed bottom-up (O(rows), not O(rows x
    // allocations inside) as collecting each row's list would be).
    std::vector<int64_t> inside_count(rows, 0);
    if (m_table->grouping() == OperatorTable::Grouping::ByOperator) {
        for (size_t r = 0; r < rows; ++r) {
            for (int64_t a : m_table->allocationsInside(int64_t(r))) {
                if (m_pass[size_t(a)]) {
                    m_filterInside[r] += allocations[size_t(a)].size;
                    ++inside_count[r];
                }
            }
        }
    } else {
        // Post-order without recursion: parents before children in `order`, then reversed.
        std::vector<int64_t> order(m_table->topLevel().begin(), m_table->topLevel().end());
        for (size_t i = 0; i < order.size(); ++i) {
            const auto& children = m_table->row(order[i]).children;
            order.insert(order.end(), children.begin(), children.end());
        }
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const size_t r = size_t(*it);
            m_filterInside[r] += m_filterSelf[r];
            inside_count[r] += self_count[r];
            const int64_t parent = m_table->rows()[r].parent;
            if (parent >= 0) {
                m_filterInside[size_t(parent)] += m_filterInside[r];
                inside_count[size_t(parent)] += inside_count[r];
            }
        }
    }
    std::vector<uint8_t> keep(rows, 0);
    m_filterShown = 0;
    // Rows with an allocation the filter selects or a call in its range, and their parents
    // (a module's "backward" row has no calls of its own).
    for (size_t r = 0; r < rows; ++r) {
        const bool called = !m_filterCalls.rows.empty() && m_filterCalls.rows[r].calls > 0;
        if (inside_count[r] > 0 || called) {
            for (int64_t k = int64_t(r); k >= 0 && !keep[size_t(k)];
                 k = m_table->rows()[size_t(k)].parent) {
                keep[size_t(k)] = 1;
            }
        }
    }
    for (size_t r = 0; r < rows; ++r) {
        m_filterShown += keep[r];
    }
    for (size_t r = 0; r < rows; ++r) {
        for (int64_t child : m_table->rows()[r].children) {
            if (keep[size_t(child)]) {
                m_filterChildren[r].push_back(child);
            }
        }
    }
    for (int64_t top : m_table->topLevel()) {
        if (keep[size_t(top)]) {
            m_filterTop.push_back(top);
        }
    }
}

void OperatorTableModel::rebuildPositions() {
    m_position.clear();
    if (!m_table) {
        return;
    }
    m_position.assign(m_table->rows().size(), -1);
    const auto& top = childrenOf(-1);
    for (size_t i = 0; i < top.size(); ++i) {
        m_position[size_t(top[i])] = int(i);
    }
    for (size_t r = 0; r < m_table->rows().size(); ++r) {
        const auto& children = childrenOf(int64_t(r));
        for (size_t i = 0; i < children.size(); ++i) {
            m_position[size_t(children[i])] = int(i);
        }
    }
}

const std::vector<int64_t>& OperatorTableModel::childrenOf(int64_t row) const {
    if (m_filter) {
        return row < 0 ? m_filterTop : m_filterChildren[size_t(row)];
    }
    return row < 0 ? m_table->topLevel() : m_table->row(row).children;
}

int64_t OperatorTableModel::shownRowCount() const {
    if (!m_table) {
        return 0;
    }
    return m_filter ? m_filterShown : int64_t(m_table->rows().size());
}

std::vector<int64_t> OperatorTableModel::allocationsInside(int64_t row) const {
    if (!m_table || row < 0 || row >= int64_t(m_table->rows().size())) {
        return {};
    }
    std::vector<int64_t> inside = m_table->allocationsInside(row);
    if (m_filter) {
        inside.erase(std::remove_if(inside.begin(), inside.end(),
                                    [this](int64_t a) { return !m_pass[size_t(a)]; }),
                     inside.end());
    }
    return inside;
}

int64_t OperatorTableModel::bytesAllocated(const OperatorTable::Row& row, int64_t index) const {
    return m_filter ? m_filterInside[size_t(index)] : row.bytes_allocated;
}

int64_t OperatorTableModel::selfBytesAllocated(const OperatorTable::Row& row, int64_t index) const {
    return m_filter ? m_filterSelf[size_t(index)] : row.self_bytes_allocated;
}

int64_t OperatorTableModel::selfNetBytes(const OperatorTable::Row& row, int64_t index) const {
    return m_filter ? m_filterLive[size_t(index)] : row.self_net_bytes;
}

OperatorTable::Calls OperatorTableModel::calls(const OperatorTable::Row& row, int64_t index) const {
    if (callsFollowFilter()) {
        return m_filterCalls.rows[size_t(index)];
    }
    return {row.calls, row.self_ns, row.total_ns, row.flops};
}

int64_t OperatorTableModel::coveredNs() const {
    if (!m_table) {
        return 0;
    }
    return callsFollowFilter() ? m_filterCalls.covered_ns : m_table->coveredNs();
}

double OperatorTableModel::selfPercent(const OperatorTable::Row& row, int64_t index) const {
    return callsFollowFilter() ? m_filterCalls.selfPercent(m_filterCalls.rows[size_t(index)])
                               : m_table->selfPercent(row);
}

double OperatorTableModel::totalPercent(const OperatorTable::Row& row, int64_t index) const {
    return callsFollowFilter() ? m_filterCalls.totalPercent(m_filterCalls.rows[size_t(index)])
                               : m_table->totalPercent(row);
}

int64_t OperatorTableModel::tableRow(const QModelIndex& index) const {
    if (!index.isValid() || !m_table || index.model() != this) {
        return -1;
    }
    return static_cast<int64_t>(index.internalId());
}

QModelIndex OperatorTableModel::indexOfTableRow(int64_t row, int column) const {
    if (!m_table || row < 0 || row >= static_cast<int64_t>(m_table->rows().size()) ||
        m_position[size_t(row)] < 0) {
        return {};
    }
    return createIndex(m_position[size_t(row)], column, quintptr(row));
}

QModelIndex OperatorTableModel::index(int row, int column, const QModelIndex& parent) const {
    if (!m_table || row < 0 || column < 0 || column >= ColumnCount ||
        (parent.isValid() && parent.column() != 0)) {
        return {};
    }
    const auto& children = childrenOf(parent.isValid() ? tableRow(parent) : -1);
    if (size_t(row) >= children.size()) {
        return {};
    }
    return createIndex(row, column, quintptr(children[size_t(row)]));
}

QModelIndex OperatorTableModel::parent(const QModelIndex& child) const {
    const int64_t row = tableRow(child);
    if (row < 0) {
        return {};
    }
    return indexOfTableRow(m_table->row(row).parent);
}

int OperatorTableModel::rowCount(const QModelIndex& parent) const {
    if (!m_table || (parent.isValid() && parent.column() != 0)) {
        return 0;
    }
    return int(childrenOf(parent.isValid() ? tableRow(parent) : -1).size());
}

int OperatorTableModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QString OperatorTableModel::fullName(int64_t index) const {
    const auto& row = m_table->row(index);
    switch (row.kind) {
        case OperatorTable::RowKind::Backward:
            return tr("backward of %1").arg(QString::fromStdString(row.name));
        case OperatorTable::RowKind::Unattributed:
            return m_table->grouping() == OperatorTable::Grouping::ByModule
                       ? tr("(outside any module or operator)")
                       : tr("(outside any operator)");
        default:
            return QString::fromStdString(row.name);
    }
}

QString OperatorTableModel::displayName(int64_t index) const {
    const auto& row = m_table->row(index);
    if (row.kind == OperatorTable::RowKind::Backward) {
        return tr("backward");
    }
    // Module paths are shown relative to the module above them ("blocks.0" under "TinyLlama").
    if (row.kind == OperatorTable::RowKind::Module && row.parent >= 0) {
        const std::string& parent = m_table->row(row.parent).name;
        if (row.name.size() > parent.size() + 1 &&
            row.name.compare(0, parent.size(), parent) == 0 && row.name[parent.size()] == '.') {
            return QString::fromStdString(row.name.substr(parent.size() + 1));
        }
    }
    return fullName(index);
}

QVariant OperatorTableModel::display(const OperatorTable::Row& row, int64_t index,
                                     int column) const {
    const QLocale locale;
    auto ms = [&locale](int64_t ns) {
        return tr("%1 ms").arg(locale.toString(double(ns) / 1e6, 'f', 3));
    };
    auto percent = [&locale](double p) { return tr("%1 %").arg(locale.toString(p, 'f', 2)); };
    const OperatorTable::Calls c = calls(row, index);
    const bool timed = c.calls > 0;
    switch (column) {
        case Name:
            return displayName(index);
        case Calls:
            return timed ? locale.toString(qint64(c.calls)) : QString();
        case SelfCpu:
            return timed ? ms(c.self_ns) : QString();
        case SelfCpuPercent:
            return timed ? percent(selfPercent(row, index)) : QString();
        case TotalCpu:
            return c.total_ns > 0 ? ms(c.total_ns) : QString();
        case TotalCpuPercent:
            return c.total_ns > 0 ? percent(totalPercent(row, index)) : QString();
        case DeviceTime:
            return row.device_ns > 0 ? ms(row.device_ns) : QString();
        case CpuMemory:
            return bytesText(bytesAllocated(row, index));
        case SelfCpuMemory:
            return bytesText(selfNetBytes(row, index));
        case SelfAllocated:
            return bytesText(selfBytesAllocated(row, index));
        case InputShapes: {
            if (row.shapes.empty()) {
                return QString();
            }
            const QString first =
                QString::fromStdString(m_trace->shape_strings[row.shapes[0].first]);
            return row.shapes.size() == 1
                       ? first
                       : tr("%1 (+%n more)", nullptr, int(row.shapes.size() - 1)).arg(first);
        }
        case Flops:
            return c.flops > 0 ? flopsText(c.flops) : QString();
        case BytesSent:
            return row.bytes_sent > 0 ? bytesText(row.bytes_sent) : QString();
        default:
            return {};
    }
}

QVariant OperatorTableModel::sortValue(const OperatorTable::Row& row, int64_t index,
                                       int column) const {
    switch (column) {
        case Name:
            return displayName(index);
        case Calls:
            return qint64(calls(row, index).calls);
        case SelfCpu:
            return qint64(calls(row, index).self_ns);
        case SelfCpuPercent:
            return selfPercent(row, index);
        case TotalCpu:
            return qint64(calls(row, index).total_ns);
        case TotalCpuPercent:
            return totalPercent(row, index);
        case DeviceTime:
            return qint64(row.device_ns);
        case CpuMemory:
            return qint64(bytesAllocated(row, index));
        case SelfCpuMemory:
            return qint64(selfNetBytes(row, index));
        case SelfAllocated:
            return qint64(selfBytesAllocated(row, index));
        case InputShapes:
            return row.shapes.empty()
                       ? QString()
                       : QString::fromStdString(m_trace->shape_strings[row.shapes[0].first]);
        case Flops:
            return calls(row, index).flops;
        case BytesSent:
            return qint64(row.bytes_sent);
        default:
            return {};
    }
}

QVariant OperatorTableModel::toolTip(const OperatorTable::Row& row, int64_t index,
                                     int column) const {
    const QLocale locale;
    auto exact = [&locale](int64_t bytes) {
        return tr("%1 bytes").arg(locale.toString(qint64(bytes)));
    };
    switch (column) {
        case Name:
            return fullName(index);
        case CpuMemory:
            return tr("%1 allocated inside, nested calls included (%n allocation(s))", nullptr,
                      int(m_table->allocationsInside(index).size()))
                .arg(exact(bytesAllocated(row, index)));
        case SelfCpuMemory:
            return tr("%1 allocated minus freed in this row itself")
                .arg(exact(selfNetBytes(row, index)));
        case SelfAllocated:
            return tr("%1 in the %n allocation(s) attributed to this row", nullptr,
                      int(row.allocations.size()))
                .arg(exact(selfBytesAllocated(row, index)));
        case InputShapes: {
            QStringList lines;
            for (size_t i = 0; i < row.shapes.size() && i < 12; ++i) {
                lines << tr("%1 calls: %2")
                             .arg(locale.toString(qint64(row.shapes[i].second)),
                                  QString::fromStdString(
                                      m_trace->shape_strings[row.shapes[i].first]));
            }
            if (row.shapes.size() > 12) {
                lines << tr("(%n more)", nullptr, int(row.shapes.size() - 12));
            }
            return lines.join(QLatin1Char('\n'));
        }
        case Flops: {
            const double flops = calls(row, index).flops;
            return flops > 0 ? tr("%1 FLOP").arg(locale.toString(flops, 'f', 0)) : QVariant();
        }
        default:
            return {};
    }
}

QVariant OperatorTableModel::data(const QModelIndex& index, int role) const {
    const int64_t r = tableRow(index);
    if (r < 0) {
        return {};
    }
    const auto& row = m_table->row(r);
    switch (role) {
        case Qt::DisplayRole:
            return display(row, r, index.column());
        case SortRole:
            return sortValue(row, r, index.column());
        case Qt::ToolTipRole:
            return toolTip(row, r, index.column());
        case Qt::TextAlignmentRole:
            return index.column() == Name || index.column() == InputShapes
                       ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                       : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
        case SearchTextRole: {
            QString text = fullName(r);
            for (const auto& [shape, calls] : row.shapes) {
                text += QLatin1Char('\n') + QString::fromStdString(m_trace->shape_strings[shape]);
            }
            return text;
        }
        case TableRowRole:
            return qint64(r);
        default:
            return {};
    }
}

QVariant OperatorTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
            case Name:
                return tr("Name");
            case Calls:
                return tr("Calls");
            case SelfCpu:
                return tr("Self CPU");
            case SelfCpuPercent:
                return tr("Self CPU %");
            case TotalCpu:
                return tr("CPU total");
            case TotalCpuPercent:
                return tr("CPU total %");
            case DeviceTime:
                return tr("Device total");
            case CpuMemory:
                return tr("CPU Mem");
            case SelfCpuMemory:
                return tr("Self CPU Mem");
            case SelfAllocated:
                return tr("Self allocated");
            case InputShapes:
                return tr("Input shapes");
            case Flops:
                return tr("FLOPs");
            case BytesSent:
                return tr("Sent");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case SelfCpu:
                return tr("Wall time inside the calls minus the calls nested in them");
            case SelfCpuPercent:
            case TotalCpuPercent:
                return tr("Share of the time inside recorded scopes");
            case TotalCpu:
                return tr("Wall time inside the calls, nested calls included");
            case DeviceTime:
                return tr("GPU time, where measured");
            case CpuMemory:
                return tr("Bytes allocated inside, nested calls included");
            case SelfCpuMemory:
                return tr("Bytes allocated minus bytes freed in the row itself (can be negative)");
            case SelfAllocated:
                return tr("Bytes of the allocations attributed to this row");
            case Flops:
                return tr("Matmul FLOPs from the recorded input shapes (--record-shapes)");
            case BytesSent:
                return tr("Payload the c10d collectives handed to the other ranks");
            default:
                break;
        }
    }
    return {};
}

}  // namespace memscope
