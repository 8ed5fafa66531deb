#include "pages/roofline_panel.h"

#include "common/byte_format.h"
#include "pages/summary_result.h"

#include <QFormLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace memscope {

namespace {

// "12.3 GFLOP/s"-style numbers with an SI prefix.
QString siText(double value, const QString& unit) {
    static const char* const prefixes[] = {"", "K", "M", "G", "T", "P"};
    int p = 0;
    while (std::fabs(value) >= 1000.0 && p < 5) {
        value /= 1000.0;
        ++p;
    }
    return QStringLiteral("%1 %2%3").arg(QLocale().toString(value, 'f', p == 0 ? 0 : 2),
                                         QLatin1String(prefixes[p]), unit);
}

QString boundText(Roofline::Bound bound) {
    switch (bound) {
        case Roofline::Bound::MemoryBound:
            return RooflinePanel::tr("memory-bound");
        case Roofline::Bound::Mixed:
            return RooflinePanel::tr("mixed");
        case Roofline::Bound::ComputeBound:
            return RooflinePanel::tr("compute-bound");
        case Roofline::Bound::Unknown:
            break;
    }
    return RooflinePanel::tr("unknown");
}

const char* const kRooflineKeys[] = {"step_flops", "step_bytes",       "step_intensity",
                                     "step_class", "step_flops_per_s", "step_bandwidth",
                                     "peak_flops", "peak_bandwidth",   "ridge"};

}  // namespace

RooflinePanel::RooflinePanel(QWidget* parent) : QGroupBox(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* step_form = new QWidget(this);
    step_form->setLayout(new QFormLayout);
    layout->addWidget(step_form);
    for (const char* key : kRooflineKeys) {
        m_figures.add(step_form, QLatin1String(key))->setWordWrap(true);
    }
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    layout->addWidget(m_note);
    m_table = new QTableWidget(0, 10, this);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->setAlternatingRowColors(true);
    m_table->setMinimumHeight(260);
    layout->addWidget(m_table, 1);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RooflinePanel::onSelection);
}

void RooflinePanel::showResult(const SummaryResult* r) {
    if (!r || !r->error.isEmpty()) {
        m_operators.reset();
        m_figures.clear();
        m_table->setRowCount(0);
        m_note->clear();
        return;
    }
    m_operators = r->operators;
    const QLocale locale;
    const QString none = tr("n/a");
    const Roofline& roof = r->roofline;
    const Roofline::Entry& step = roof.step;
    const bool shapes = roof.shapes_recorded;
    auto set = [this](const char* key, const QString& text, const QString& tool_tip = {}) {
        m_figures.set(QLatin1String(key), text, tool_tip);
    };
    set("step_flops", shapes ? siText(step.flops, tr("FLOP")) : none);
    set("step_bytes", shapes ? tr("%1 (estimated)").arg(bytesText(step.bytes())) : none,
        shapes ? tr("%1 read (estimated from shapes and dtype) + %2 written (allocated)")
                     .arg(bytesText(step.bytes_read), bytesText(step.bytes_written))
               : QString());
    set("step_intensity",
        shapes ? tr("%1 FLOP/byte").arg(locale.toString(step.intensity(), 'f', 1)) : none);
    set("step_class", boundText(step.bound()));
    set("step_flops_per_s",
        shapes ? siText(step.flopsPerSecond(), tr("FLOP/s")) +
                     (r->peak_flops_per_s > 0
                          ? tr(" (%1 % of peak)")
                                .arg(locale.toString(
                                    100.0 * step.flopsPerSecond() / r->peak_flops_per_s, 'f', 1))
                          : QString())
               : none);
    set("step_bandwidth",
        shapes ? tr("%1/s").arg(bytesText(step.bytesPerSecond())) +
                     (r->peak_bytes_per_s > 0
                          ? tr(" (%1 % of peak)")
                                .arg(locale.toString(
                                    100.0 * step.bytesPerSecond() / r->peak_bytes_per_s, 'f', 1))
                          : QString())
               : none);
    set("peak_flops", r->peak_flops_per_s > 0 ? siText(r->peak_flops_per_s, tr("FLOP/s")) : none,
        r->peak_flops_method);
    set("peak_bandwidth",
        r->peak_bytes_per_s > 0 ? tr("%1/s").arg(bytesText(r->peak_bytes_per_s)) : none,
        r->peak_bandwidth_method);
    const double ridge = Roofline::ridgePoint(r->peak_flops_per_s, r->peak_bytes_per_s);
    set("ridge", ridge > 0 ? tr("%1 FLOP/byte").arg(locale.toString(ridge, 'f', 1)) : none);

    QStringList notes;
    if (shapes) {
        notes << tr("Bytes moved are an estimate: inputs from the recorded shapes at the "
                    "run's element size (%1; under autocast matmuls read 2 bytes, other ops 4), "
                    "outputs from the bytes each call allocated. FLOPs count matmul-like ops "
                    "only. Classification: below %2 FLOP/byte memory-bound, %2 to %3 mixed, "
                    "above %3 compute-bound.")
                     .arg(QString::fromStdString(roof.dtype))
                     .arg(Roofline::kMemoryBoundBelow)
                     .arg(Roofline::kComputeBoundAbove);
        notes << tr(
            "Per step: averages over %n step(s); the step's rates are against its "
            "wall time.",
            nullptr, int(roof.steps));
    } else {
        notes << tr(
            "This run has no input shapes: record it with memscope-cli record --record-shapes "
            "for FLOPs, bytes moved and the roofline.");
    }
    if (!r->peak_flops_method.isEmpty()) {
        notes << tr("Peak FLOP/s: %1.").arg(r->peak_flops_method);
    }
    if (!r->peak_bandwidth_method.isEmpty()) {
        notes << tr("Peak bandwidth: %1.").arg(r->peak_bandwidth_method);
    }
    m_note->setText(notes.join(QLatin1Char(' ')));
    fillTable(r);
}

void RooflinePanel::fillTable(const SummaryResult* r) {
    const QLocale locale;
    m_table->setSortingEnabled(false);
    m_table->setRowCount(0);
    const auto& ops = r->roofline.ops;
    m_table->setRowCount(int(ops.size()));
    for (int i = 0; i < int(ops.size()); ++i) {
        const Roofline::Entry& e = ops[size_t(i)];
        const bool shapes = e.shapes;
        const QString cells[] = {
            QString::fromStdString(e.name),
            locale.toString(qint64(e.calls)),
            tr("%1 ms").arg(locale.toString(double(e.time_ns) / 1e6, 'f', 3)),
            e.flops > 0 ? siText(e.flops, tr("FLOP")) : QString(),
            shapes ? bytesText(e.bytes_read) : QString(),
            bytesText(e.bytes_written),
            shapes ? locale.toString(e.intensity(), 'f', 2) : QString(),
            e.flops > 0 ? siText(e.flopsPerSecond(), tr("FLOP/s")) : QString(),
            shapes ? tr("%1/s").arg(bytesText(e.bytesPerSecond())) : QString(),
            boundText(e.bound()),
        };
        for (int c = 0; c < 10; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c > 0 && c < 9) {
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            }
            m_table->setItem(i, c, item);
        }
    }
    m_table->resizeColumnsToContents();
}

void RooflinePanel::onSelection() {
    const auto rows = m_table->selectionModel()->selectedRows();
    QVector<qint64> allocations;
    if (!rows.isEmpty() && m_operators) {
        const QString name = m_table->item(rows.first().row(), 0)->text();
        const auto& table = *m_operators;
        for (size_t i = 0; i < table.rows().size(); ++i) {
            const auto& row = table.rows()[i];
            if (row.kind == OperatorTable::RowKind::Operator &&
                QString::fromStdString(row.name) == name) {
                for (int64_t a : table.allocationsInside(int64_t(i))) {
                    allocations.push_back(a);
                }
                break;
            }
        }
    }
    emit allocationsHighlighted(allocations);
}

void RooflinePanel::retranslateUi() {
    setTitle(tr("Roofline"));
    const std::pair<const char*, QString> names[] = {
        {"step_flops", tr("FLOPs per step:")},
        {"step_bytes", tr("Bytes moved per step:")},
        {"step_intensity", tr("Arithmetic intensity:")},
        {"step_class", tr("Step is:")},
        {"step_flops_per_s", tr("Achieved FLOP/s:")},
        {"step_bandwidth", tr("Achieved bandwidth:")},
        {"peak_flops", tr("Peak FLOP/s:")},
        {"peak_bandwidth", tr("Peak bandwidth:")},
        {"ridge", tr("Ridge point:")},
    };
    m_figures.setNames(names);
    m_table->setHorizontalHeaderLabels({tr("Operator"), tr("Calls"), tr("Time"), tr("FLOPs"),
                                        tr("Bytes read (est.)"), tr("Bytes written"),
                                        tr("FLOP/byte"), tr("Achieved FLOP/s"), tr("Bandwidth"),
                                        tr("Class")});
}

}  // namespace memscope
