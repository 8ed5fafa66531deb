#include "itemmodels/comparison_model.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

#include <cmath>

namespace memscope {

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonModel::setComparison(RunComparison comparison) {
    beginResetModel();
    m_comparison = std::move(comparison);
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_comparison.rows.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString ComparisonModel::sectionText(RunComparison::Section section) const {
    switch (section) {
        case RunComparison::Section::Summary:
            return tr("Summary");
        case RunComparison::Section::Category:
            return tr("Category at peak");
        case RunComparison::Section::Module:
            return tr("Module allocated");
        case RunComparison::Section::OperatorMemory:
            return tr("Operator self allocated");
        case RunComparison::Section::OperatorTime:
            return tr("Operator self time");
    }
    return QString();
}

QString ComparisonModel::nameText(const RunComparison::Row& row) const {
    if (row.section != RunComparison::Section::Summary) {
        return QString::fromStdString(row.name);
    }
    const std::string& n = row.name;
    if (n == "Peak allocated")
        return tr("Peak allocated");
    if (n == "Peak in step 1")
        return tr("Peak in step 1");
    if (n == "Peak in later steps")
        return tr("Peak in later steps");
    if (n == "Average allocated")
        return tr("Average allocated");
    if (n == "Forward peak")
        return tr("Forward peak");
    if (n == "Backward peak")
        return tr("Backward peak");
    if (n == "Optimizer peak")
        return tr("Optimizer peak");
    if (n == "Time per step")
        return tr("Time per step");
    if (n == "Samples per second")
        return tr("Samples per second");
    if (n == "Tokens per second")
        return tr("Tokens per second");
    return QString::fromStdString(n);
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const auto& r = m_comparison.rows[size_t(index.row())];
    const int column = index.column();
    const bool numeric = column >= AColumn;
    if (role == Qt::TextAlignmentRole) {
        return numeric ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                       : QVariant(int(Qt::AlignLeft | Qt::AlignVCenter));
    }
    const auto text = [&r](double v, bool present, bool is_signed) {
        return present ? QString::fromStdString(RunComparison::formatValue(v, r.unit, is_signed))
                       : QStringLiteral("—");
    };
    if (role == Qt::DisplayRole) {
        switch (column) {
            case SectionColumn:
                return sectionText(r.section);
            case NameColumn:
                return nameText(r);
            case AColumn:
                return text(r.a, r.in_a, false);
            case BColumn:
                return text(r.b, r.in_b, false);
            case DeltaColumn:
                return text(r.delta(), true, true);
            case PercentColumn: {
                const double p = r.percent();
                return std::isnan(p) ? QStringLiteral("—")
                                     : (p > 0 ? QStringLiteral("+") : QString()) +
                                           QLocale().toString(p, 'f', 1) + QStringLiteral("%");
            }
            default:
                return {};
        }
    }
    if (role == Qt::UserRole) {
        switch (column) {
            case SectionColumn:
                return int(r.section);
            case NameColumn:
                return nameText(r);
            case AColumn:
                return r.a;
            case BColumn:
                return r.b;
            case DeltaColumn:
                return r.delta();
            case PercentColumn:
                return std::isnan(r.percent()) ? 0.0 : r.percent();
            default:
                return {};
        }
    }
    if (role == Qt::ToolTipRole && numeric && r.unit == RunComparison::Unit::Bytes) {
        const double v = column == AColumn ? r.a : column == BColumn ? r.b : r.delta();
        return tr("%1 bytes").arg(QLocale().toString(qlonglong(std::llround(v))));
    }
    if (role == Qt::ForegroundRole && (column == DeltaColumn || column == PercentColumn) &&
        r.delta() != 0) {
        // More memory or time is worse; more throughput is better.
        const bool worse =
            (r.unit == RunComparison::Unit::PerSecond) ? r.delta() < 0 : r.delta() > 0;
        return QBrush(worse ? QColor(0xc6, 0x28, 0x28) : QColor(0x2e, 0x7d, 0x32));
    }
    return {};
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case SectionColumn:
            return tr("Section");
        case NameColumn:
            return tr("Name");
        case AColumn:
            return m_comparison.name_a.empty() ? tr("A")
                                               : QString::fromStdString(m_comparison.name_a);
        case BColumn:
            return m_comparison.name_b.empty() ? tr("B")
                                               : QString::fromStdString(m_comparison.name_b);
        case DeltaColumn:
            return tr("Delta");
        case PercentColumn:
            return tr("Delta %");
    }
    return {};
}

}  // namespace memscope
