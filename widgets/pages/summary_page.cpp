#include "pages/summary_page.h"

#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "error_text.h"
#include "runs/torch_part_loader.h"

#include "run_document.h"

#include "device/peak_bandwidth.h"
#include "device/peak_flops.h"
#include "run/run_summary.h"
#include "timeline/timeline_view.h"
#include "torchpart/torch_part.h"
#include "trace/recorded_options.h"
#include "trace/trace.h"
#include "when_finished.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QHorizontalStackedBarSeries>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

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
            return SummaryPage::tr("memory-bound");
        case Roofline::Bound::Mixed:
            return SummaryPage::tr("mixed");
        case Roofline::Bound::ComputeBound:
            return SummaryPage::tr("compute-bound");
        case Roofline::Bound::Unknown:
            break;
    }
    return SummaryPage::tr("unknown");
}

const char* const kMemoryKeys[] = {"peak",
                                   "step1_peak",
                                   "steady_peak",
                                   "average",
                                   "peak_to_average",
                                   "forward_peak",
                                   "backward_peak",
                                   "optimizer_peak",
                                   "peak_at",
                                   "category_rules",
                                   "before_recording",
                                   "reserved_peak",
                                   "fragmentation_peak",
                                   "fragmentation_oom"};
const char* const kOomKeys[] = {"oom_request",    "oom_stack",   "oom_device", "oom_verdict",
                                "oom_categories", "oom_modules", "oom_advice"};
const char* const kFilterKeys[] = {"filter_range", "filter_allocations", "filter_bytes",
                                   "filter_peak", "filter_categories"};
const char* const kSpeedKeys[] = {"samples_per_s", "tokens_per_s", "tflops", "mfu"};
const char* const kRooflineKeys[] = {"step_flops", "step_bytes",       "step_intensity",
                                     "step_class", "step_flops_per_s", "step_bandwidth",
                                     "peak_flops", "peak_bandwidth",   "ridge"};

}  // namespace

SummaryPage::SummaryPage(QWidget* parent) : QWidget(parent) {
    auto* content = new QWidget;
    m_filter_box = new QGroupBox(content);
    m_filter_box->setObjectName(QStringLiteral("filter_box"));
    m_filter_box->setLayout(new QFormLayout);
    for (const char* key : kFilterKeys) {
        addFigure(m_filter_box, QLatin1String(key))->setWordWrap(true);
    }
    m_filter_box->setVisible(false);
    m_oom_box = new QGroupBox(content);
    m_oom_box->setObjectName(QStringLiteral("oom_box"));
    m_oom_box->setLayout(new QFormLayout);
    for (const char* key : kOomKeys) {
        addFigure(m_oom_box, QLatin1String(key))->setWordWrap(true);
    }
    m_sweep_button = new QPushButton(m_oom_box);
    m_sweep_button->setObjectName(QStringLiteral("oom_sweep_button"));
    static_cast<QFormLayout*>(m_oom_box->layout())->addRow(QString(), m_sweep_button);
    connect(m_sweep_button, &QPushButton::clicked, this, &SummaryPage::chooseSweep);
    m_oom_box->setVisible(false);
    m_memory_box = new QGroupBox(content);
    m_memory_box->setLayout(new QFormLayout);
    for (const char* key : kMemoryKeys) {
        addFigure(m_memory_box, QLatin1String(key));
    }
    m_values.value(QStringLiteral("category_rules"))->setWordWrap(true);
    m_values.value(QStringLiteral("before_recording"))->setWordWrap(true);
    m_speed_box = new QGroupBox(content);
    m_speed_box->setLayout(new QFormLayout);
    for (const char* key : kSpeedKeys) {
        addFigure(m_speed_box, QLatin1String(key));
    }
    m_chart_box = new QGroupBox(content);
    m_chart_view = new QChartView(m_chart_box);
    m_chart_view->setRenderHint(QPainter::Antialiasing);
    m_chart_view->setMinimumSize(420, 260);
    auto* chart_layout = new QVBoxLayout(m_chart_box);
    chart_layout->addWidget(m_chart_view);

    m_roofline_box = new QGroupBox(content);
    auto* roofline_layout = new QVBoxLayout(m_roofline_box);
    auto* step_form = new QWidget(m_roofline_box);
    step_form->setLayout(new QFormLayout);
    roofline_layout->addWidget(step_form);
    for (const char* key : kRooflineKeys) {
        auto* name = new QLabel(step_form);
        auto* value = new QLabel(step_form);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setWordWrap(true);
        static_cast<QFormLayout*>(step_form->layout())->addRow(name, value);
        m_names.insert(QLatin1String(key), name);
        m_values.insert(QLatin1String(key), value);
    }
    m_roofline_note = new QLabel(m_roofline_box);
    m_roofline_note->setWordWrap(true);
    roofline_layout->addWidget(m_roofline_note);
    m_roofline_table = new QTableWidget(0, 10, m_roofline_box);
    m_roofline_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_roofline_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_roofline_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_roofline_table->verticalHeader()->setVisible(false);
    m_roofline_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_roofline_table->setAlternatingRowColors(true);
    m_roofline_table->setMinimumHeight(260);
    roofline_layout->addWidget(m_roofline_table, 1);

    m_rank_box = new QGroupBox(content);
    m_rank_table = new QTableWidget(0, 7, m_rank_box);
    m_rank_table->setObjectName(QStringLiteral("rank_table"));
    m_rank_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_rank_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_rank_table->verticalHeader()->setVisible(false);
    m_rank_table->setAlternatingRowColors(true);
    auto* rank_layout = new QVBoxLayout(m_rank_box);
    rank_layout->addWidget(m_rank_table);
    m_rank_box->setVisible(false);

    auto* grid = new QGridLayout(content);
    grid->addWidget(m_rank_box, 0, 0, 1, 2);
    grid->addWidget(m_filter_box, 1, 0, 1, 2);
    grid->addWidget(m_oom_box, 2, 0, 1, 2);
    grid->addWidget(m_memory_box, 3, 0);
    grid->addWidget(m_chart_box, 3, 1, 2, 1);
    grid->addWidget(m_speed_box, 4, 0);
    grid->addWidget(m_roofline_box, 5, 0, 1, 2);
    grid->setColumnStretch(1, 1);
    grid->setRowStretch(5, 1);

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(scroll, 1);

    connect(m_roofline_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SummaryPage::onRooflineSelection);
    retranslateUi();
}

SummaryPage::SummaryPage(RunDocument* document, QWidget* parent) : SummaryPage(parent) {
    setViewState(document);
}

SummaryPage::~SummaryPage() = default;

QLabel* SummaryPage::addFigure(QGroupBox* box, const QString& key) {
    auto* name = new QLabel(box);
    auto* value = new QLabel(box);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    static_cast<QFormLayout*>(box->layout())->addRow(name, value);
    m_names.insert(key, name);
    m_values.insert(key, value);
    return value;
}

void SummaryPage::setFigure(const QString& key, const QString& text, const QString& tool_tip) {
    if (QLabel* label = m_values.value(key)) {
        label->setText(text);
        label->setToolTip(tool_tip);
    }
}

QString SummaryPage::figureText(const QString& key) const {
    const QLabel* label = m_values.value(key);
    return label ? label->text() : QString();
}

SummaryPage::Result SummaryPage::compute(std::shared_ptr<const Trace> trace, bool measure_peaks,
                                         QFuture<std::shared_ptr<const OperatorTable>> operators) {
    Result r;
    r.source = QString::fromStdString(trace->meta.source);
    r.events = qint64(trace->events.count());
    r.allocations = qint64(trace->allocations().size());
    r.categories_inferred = trace->meta.categories_inferred;
    r.statistics = RunStatistics::fromTrace(*trace);
    if (const int64_t peak = trace->peakEvent(); peak >= 0) {
        r.rules_at_peak = TraceSummary::leadingRulesAt(*trace, size_t(peak));
    }
    r.before_recording_bytes = TraceSummary::beforeRecordingBytes(*trace);
    r.roofline = Roofline::compute(*trace);
    r.reserved = ReservedMemory::compute(*trace);
    r.oom = OomExplanation::explain(*trace);
    if (r.oom && r.oom->capacity() > 0) {
        if (const auto options = recordedOptions(trace->meta)) {
            try {
                r.advice = FitAdvice::suggest(*options, r.oom->capacity());
                r.advised = true;
            } catch (const std::exception&) {
                // a configuration the planner does not model: no advice
            }
        }
        try {
            r.program_command = ProgramFitAdvice::commandOf(trace->meta.config);
        } catch (const std::exception&) {
            // not a Python program's run
        }
    }
    // The document's table, shared with the operator page (built meanwhile on another worker,
    // or here if it had not started).
    r.operators = operators.isValid() ? operators.result()
                                      : std::make_shared<const OperatorTable>(OperatorTable::build(
                                            *trace, OperatorTable::Grouping::ByOperator));
    r.peak_flops_per_s = r.statistics.peak_tflops_per_s * 1e12;
    r.peak_flops_method = QString::fromStdString(r.statistics.peak_tflops_method);
    const std::string device = trace->meta.device;
    const bool cpu = device.empty() || device == "cpu";
    const bool recorded = trace->meta.source == "recorded";
    // Measured with LibTorch (its part is loaded here, on the worker, if it was not yet); without
    // the part the peaks stay unknown.
    TorchPart* part = measure_peaks && cpu && recorded ? TorchPartLoader::part() : nullptr;
    if (part) {
        const int threads = trace->meta.threads;
        if (r.peak_flops_per_s <= 0) {
            const auto dtype = recordedOptions(trace->meta).value_or(TrainOptions()).dtype;
            const auto peak = part->peakFlopsOnCpu(dtype, threads);
            r.peak_flops_per_s = peak.flops_per_s;
            r.peak_flops_method =
                tr("%1, now on this computer").arg(QString::fromStdString(peak.method));
        }
        const auto bandwidth = part->peakBandwidthOnCpu(threads);
        r.peak_bytes_per_s = bandwidth.bytes_per_s;
        r.peak_bandwidth_method =
            tr("%1, now on this computer").arg(QString::fromStdString(bandwidth.method));
    }
    return r;
}

SummaryPage::RankRow SummaryPage::rankRowOf(int rank, const Trace& trace) {
    RankRow row;
    row.rank = rank;
    row.events = qint64(trace.events.count());
    // What the run stored (its summary and steps); the events are not read.
    const RunStatistics stored = RunStatistics::fromStored(trace);
    row.step1_peak_bytes = stored.step1_peak_bytes;
    row.steady_peak_bytes = stored.steady_peak_bytes;
    row.peak_bytes = stored.peak_bytes;
    row.avg_step_s = stored.avg_step_s;
    row.communication_bytes = stored.communication_bytes;
    return row;
}

void SummaryPage::setRanks(const QVector<RankRow>& ranks, int current) {
    m_ranks = ranks;
    m_current_rank = current;
    m_rank_box->setVisible(!ranks.isEmpty());
    fillRankTable();
}

void SummaryPage::fillRankTable() {
    m_rank_table->setRowCount(int(m_ranks.size()));
    const QLocale locale;
    for (int i = 0; i < m_ranks.size(); ++i) {
        const RankRow& r = m_ranks[i];
        auto set = [&](int column, const QString& text, bool number = true) {
            auto* item = new QTableWidgetItem(text);
            if (number) {
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            }
            if (r.rank == m_current_rank) {
                QFont font = item->font();
                font.setBold(true);
                item->setFont(font);
            }
            m_rank_table->setItem(i, column, item);
        };
        set(0, r.rank == m_current_rank ? tr("%1 (shown)").arg(r.rank) : QString::number(r.rank),
            false);
        if (r.missing) {
            set(1, tr("no recording"), false);
            for (int c = 2; c < 7; ++c) {
                set(c, QString());
            }
            continue;
        }
        set(1, humanBytes(r.peak_bytes));
        set(2, humanBytes(r.step1_peak_bytes));
        set(3, humanBytes(r.steady_peak_bytes));
        set(4, tr("%1 s").arg(locale.toString(r.avg_step_s, 'f', 3)));
        set(5, humanBytes(r.communication_bytes));
        set(6, locale.toString(r.events));
    }
    m_rank_table->resizeColumnsToContents();
    m_rank_table->setFixedHeight(m_rank_table->horizontalHeader()->height() +
                                 m_rank_table->verticalHeader()->defaultSectionSize() *
                                     int(std::max<qsizetype>(1, m_ranks.size())) +
                                 4);
}

void SummaryPage::setViewState(RunDocument* state) {
    if (m_state) {
        disconnect(m_state, nullptr, this, nullptr);
        disconnect(this, nullptr, m_state, nullptr);
    }
    m_state = state;
    if (m_state) {
        connect(m_state, &RunDocument::filterChanged, this, &SummaryPage::followFilter);
        connect(this, &SummaryPage::allocationsHighlighted, m_state,
                &RunDocument::setHighlightedAllocations);
    }
    followFilter();
}

void SummaryPage::followFilter() {
    const auto trace = m_trace.lock();
    const bool same_run = m_state && m_state->shows(trace);
    const auto& filter = m_state ? m_state->filter() : std::optional<RangeFilter>();
    if (!same_run || !filter) {
        m_filter_box->setVisible(false);
        return;
    }
    const RangeFilter::Summary sum = filter->summarize(*trace);
    const QLocale locale;
    m_filter_box->setVisible(true);
    m_filter_box->setTitle(tr("Filtered range"));
    m_names.value(QStringLiteral("filter_range"))->setText(tr("Events"));
    m_names.value(QStringLiteral("filter_allocations"))
        ->setText(filter->mode == RangeFilter::Mode::AliveIn ? tr("Allocations alive in it")
                                                             : tr("Allocations made in it"));
    m_names.value(QStringLiteral("filter_bytes"))->setText(tr("Their bytes"));
    m_names.value(QStringLiteral("filter_peak"))->setText(tr("Highest live total in it"));
    m_names.value(QStringLiteral("filter_categories"))->setText(tr("Their bytes by category"));
    setFigure(QStringLiteral("filter_range"),
              tr("%1–%2 (%3 s – %4 s)")
                  .arg(locale.toString(qint64(filter->first)),
                       locale.toString(qint64(std::max(filter->first, filter->last - 1))),
                       locale.toString(double(sum.begin_ns) / 1e9, 'f', 3),
                       locale.toString(double(sum.end_ns) / 1e9, 'f', 3)));
    setFigure(QStringLiteral("filter_allocations"), locale.toString(qint64(sum.allocations)));
    setFigure(QStringLiteral("filter_bytes"), QString::fromStdString(formatBytes(sum.bytes)));
    setFigure(QStringLiteral("filter_peak"),
              sum.peak_event < 0 ? tr("none")
                                 : tr("%1 at event %2")
                                       .arg(QString::fromStdString(formatBytes(sum.peak_bytes)),
                                            locale.toString(qint64(sum.peak_event))));
    QStringList parts;
    for (int c = 0; c < kCategoryCount; ++c) {
        if (sum.bytes_by_category[size_t(c)] > 0) {
            parts << QStringLiteral("%1 %2").arg(
                TimelineLabels::categoryName(c),
                QString::fromStdString(formatBytes(sum.bytes_by_category[size_t(c)])));
        }
    }
    setFigure(QStringLiteral("filter_categories"), parts.join(QStringLiteral(", ")));
}

void SummaryPage::setTrace(std::shared_ptr<const Trace> trace) {
    m_trace = trace;
    m_sweep_advice.reset();
    m_sweep_error.clear();
    followFilter();
    const uint64_t generation = ++m_generation;
    m_result.reset();
    if (!trace) {
        m_pending = false;
        showResult();
        return;
    }
    m_pending = true;
    showResult();
    const bool measure = m_measure;
    const auto operators =
        m_state ? m_state->operatorTable(trace) : QFuture<std::shared_ptr<const OperatorTable>>();
    // A run the analysis cannot take (a malformed imported file, say) says why instead of
    // computing forever: an exception would end the future without its result.
    auto work = [trace, measure, operators] {
        try {
            return std::make_shared<const Result>(compute(trace, measure, operators));
        } catch (const std::exception& e) {
            Result failed;
            failed.error = errorText(e);
            return std::make_shared<const Result>(std::move(failed));
        }
    };
    // whenFinished rather than QFuture::then(this, ...): with Qt 6.4 the continuation was
    // sometimes never run (test_segment_view waited 20 s for `computed` about one run in two).
    whenFinished(this, QtConcurrent::run(work),
                 [this, generation](std::shared_ptr<const Result> result) {
                     if (generation == m_generation) {
                         adopt(std::move(result));
                     }
                 });
}

void SummaryPage::adopt(std::shared_ptr<const Result> result) {
    m_pending = false;
    m_result = std::move(result);
    showResult();
    emit computed();
}

void SummaryPage::showResult() {
    const QLocale locale;
    const Result* r = m_result.get();
    if (!r || !r->error.isEmpty()) {
        for (QLabel* label : std::as_const(m_values)) {
            label->clear();
        }
        m_roofline_table->setRowCount(0);
        m_roofline_note->clear();
        m_status->setText(r           ? tr("Cannot summarize this run: %1").arg(r->error)
                          : m_pending ? tr("Computing the summary...")
                                      : tr("No run open."));
        updateChart();
        showOom();
        followFilter();  // its figures do not wait for the summary
        return;
    }
    const RunStatistics& s = r->statistics;
    auto bytes = [&locale](int64_t b) {
        return std::make_pair(QString::fromStdString(formatBytes(b)),
                              tr("%1 bytes").arg(locale.toString(qint64(b))));
    };
    auto set_bytes = [&](const char* key, int64_t b) {
        const auto [text, tip] = bytes(b);
        setFigure(QLatin1String(key), text, tip);
    };
    const QString none = tr("n/a");
    set_bytes("peak", s.peak_bytes);
    set_bytes("step1_peak", s.step1_peak_bytes);
    if (s.steady_peak_bytes > 0) {
        set_bytes("steady_peak", s.steady_peak_bytes);
    } else {
        setFigure(QStringLiteral("steady_peak"), tr("n/a (one step)"));
    }
    set_bytes("average", s.avg_bytes);
    setFigure(QStringLiteral("peak_to_average"),
              s.peak_to_avg > 0 ? locale.toString(s.peak_to_avg, 'f', 2) : none);
    // An import's phases (and so its per-phase peaks and categories) are inferred from the
    // snapshot's frames and annotations: said beside each figure that rests on them.
    const bool inferred = r->categories_inferred;
    auto set_phase_bytes = [&](const char* key, int64_t b) {
        const auto [text, tip] = bytes(b);
        setFigure(QLatin1String(key), inferred ? tr("%1 (inferred)").arg(text) : text, tip);
    };
    set_phase_bytes("forward_peak", s.forward_peak_bytes);
    set_phase_bytes("backward_peak", s.backward_peak_bytes);
    set_phase_bytes("optimizer_peak", s.optimizer_peak_bytes);
    QString peak_at =
        s.peak_phase.empty()
            ? none
            : tr("step %1, %2").arg(s.peak_step).arg(QString::fromStdString(s.peak_phase));
    setFigure(QStringLiteral("peak_at"),
              inferred && !s.peak_phase.empty() ? tr("%1 (inferred)").arg(peak_at) : peak_at);
    // Which rule put each category's bytes there (imports: their categories are inferred).
    QStringList rules;
    for (size_t c = 0; c < r->rules_at_peak.size(); ++c) {
        if (r->rules_at_peak[c].bytes > 0) {
            rules << TimelineLabels::categoryWithRule(int(c), r->rules_at_peak[c].rule, true);
        }
    }
    setFigure(QStringLiteral("category_rules"),
              inferred ? rules.join(QLatin1Char('\n')) : QString(),
              tr("At the peak, the rule that put the most bytes in each category."));
    if (auto* form = static_cast<QFormLayout*>(m_memory_box->layout())) {
        form->setRowVisible(m_values.value(QStringLiteral("category_rules")), inferred);
    }
    if (r->before_recording_bytes > 0) {
        const auto [text, tip] = bytes(r->before_recording_bytes);
        setFigure(QStringLiteral("before_recording"),
                  tr("%1 allocated before recording started. These are usually the model's "
                     "parameters, and after warm-up steps also gradients and optimizer state. To "
                     "see them, start recording before building the model.")
                      .arg(text),
                  tip);
    } else {
        setFigure(QStringLiteral("before_recording"), tr("none"));
    }
    // Reserved memory: a caching allocator's figures, or why there are none.
    const ReservedMemory& reserved = r->reserved;
    auto fragmentation = [&](const ReservedMemory::Point& p) {
        QString text = tr("%1 free of %2 reserved")
                           .arg(QString::fromStdString(formatBytes(p.free_bytes)),
                                QString::fromStdString(formatBytes(p.reserved)));
        if (p.largest_free_block >= 0) {
            text += tr(", largest free block %1")
                        .arg(QString::fromStdString(formatBytes(p.largest_free_block)));
        }
        return text;
    };
    if (reserved.cachingAllocator()) {
        set_bytes("reserved_peak", reserved.peakReserved());
        setFigure(QStringLiteral("fragmentation_peak"), fragmentation(reserved.atPeak()),
                  tr("%1 bytes reserved minus %2 bytes allocated")
                      .arg(locale.toString(qint64(reserved.atPeak().reserved)),
                           locale.toString(qint64(reserved.atPeak().allocated))));
        setFigure(QStringLiteral("fragmentation_oom"), reserved.atOom()
                                                           ? fragmentation(*reserved.atOom())
                                                           : tr("no out-of-memory event"));
    } else if (!reserved.onCpu()) {
        setFigure(QStringLiteral("reserved_peak"), tr("not recorded"),
                  tr("This GPU run has neither segments nor reserved totals (the snapshot did "
                     "not include them)."));
        setFigure(QStringLiteral("fragmentation_peak"), none);
        setFigure(QStringLiteral("fragmentation_oom"), none);
    } else {
        setFigure(QStringLiteral("reserved_peak"), tr("no caching allocator (CPU)"),
                  tr("The CPU allocator reserves nothing beyond what it hands out."));
        setFigure(QStringLiteral("fragmentation_peak"), none);
        setFigure(QStringLiteral("fragmentation_oom"), none);
    }
    if (s.has_timing) {
        setFigure(QStringLiteral("samples_per_s"), locale.toString(s.samples_per_s, 'f', 1));
        setFigure(QStringLiteral("tokens_per_s"), locale.toString(s.tokens_per_s, 'f', 0));
        setFigure(QStringLiteral("tflops"), locale.toString(s.model_tflops_per_s, 'f', 4));
        setFigure(QStringLiteral("mfu"),
                  s.mfu > 0 ? tr("%1 % of %2 TFLOP/s")
                                  .arg(locale.toString(100.0 * s.mfu, 'f', 1),
                                       locale.toString(s.peak_tflops_per_s, 'f', 3))
                            : none,
                  QString::fromStdString(s.peak_tflops_method));
    } else {
        for (const char* key : kSpeedKeys) {
            setFigure(QLatin1String(key), none);
        }
    }

    const Roofline& roof = r->roofline;
    const Roofline::Entry& step = roof.step;
    const bool shapes = roof.shapes_recorded;
    setFigure(QStringLiteral("step_flops"), shapes ? siText(step.flops, tr("FLOP")) : none);
    setFigure(QStringLiteral("step_bytes"),
              shapes ? tr("%1 (estimated)").arg(bytesText(step.bytes())) : none,
              shapes ? tr("%1 read (estimated from shapes and dtype) + %2 written (allocated)")
                           .arg(bytesText(step.bytes_read), bytesText(step.bytes_written))
                     : QString());
    setFigure(QStringLiteral("step_intensity"),
              shapes ? tr("%1 FLOP/byte").arg(locale.toString(step.intensity(), 'f', 1)) : none);
    setFigure(QStringLiteral("step_class"), boundText(step.bound()));
    setFigure(QStringLiteral("step_flops_per_s"),
              shapes
                  ? siText(step.flopsPerSecond(), tr("FLOP/s")) +
                        (r->peak_flops_per_s > 0
                             ? tr(" (%1 % of peak)")
                                   .arg(locale.toString(
                                       100.0 * step.flopsPerSecond() / r->peak_flops_per_s, 'f', 1))
                             : QString())
                  : none);
    setFigure(QStringLiteral("step_bandwidth"),
              shapes
                  ? tr("%1/s").arg(bytesText(step.bytesPerSecond())) +
                        (r->peak_bytes_per_s > 0
                             ? tr(" (%1 % of peak)")
                                   .arg(locale.toString(
                                       100.0 * step.bytesPerSecond() / r->peak_bytes_per_s, 'f', 1))
                             : QString())
                  : none);
    setFigure(QStringLiteral("peak_flops"),
              r->peak_flops_per_s > 0 ? siText(r->peak_flops_per_s, tr("FLOP/s")) : none,
              r->peak_flops_method);
    setFigure(QStringLiteral("peak_bandwidth"),
              r->peak_bytes_per_s > 0 ? tr("%1/s").arg(bytesText(r->peak_bytes_per_s)) : none,
              r->peak_bandwidth_method);
    const double ridge = Roofline::ridgePoint(r->peak_flops_per_s, r->peak_bytes_per_s);
    setFigure(QStringLiteral("ridge"),
              ridge > 0 ? tr("%1 FLOP/byte").arg(locale.toString(ridge, 'f', 1)) : none);

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
    m_roofline_note->setText(notes.join(QLatin1Char(' ')));
    fillRooflineTable();
    updateChart();
    showOom();
    m_status->setText(
        tr("%1: %2 events, %3 allocations")
            .arg(r->source, locale.toString(r->events), locale.toString(r->allocations)));
}

void SummaryPage::showOom() {
    const Result* r = m_result.get();
    const bool shown = r && r->error.isEmpty() && r->oom;
    m_oom_box->setVisible(shown);
    if (!shown) {
        return;
    }
    const OomExplanation& x = *r->oom;
    const OomExplanation::Request& q = x.request();
    const QLocale locale;
    auto bytes = [](int64_t b) { return QString::fromStdString(formatBytes(b)); };
    // The rounded figure and the exact one: "3.9 MiB (4,063,232 bytes)".
    auto exact = [&](int64_t b) {
        return tr("%1 (%2 bytes)").arg(bytes(b), locale.toString(qint64(b)));
    };
    const QString phase = TimelineLabels::phaseName(int(q.phase));
    setFigure(QStringLiteral("oom_request"),
              q.device < 0
                  ? tr("%1 in step %2 (%3), on the CPU").arg(exact(q.bytes)).arg(q.step).arg(phase)
                  : tr("%1 in step %2 (%3), on device %4")
                        .arg(exact(q.bytes))
                        .arg(q.step)
                        .arg(phase)
                        .arg(q.device));
    QString where = QString::fromStdString(q.module);
    if (q.in_backward && !where.isEmpty()) {
        where = tr("backward of %1").arg(where);
    }
    if (!q.op.empty()) {
        where = where.isEmpty() ? QString::fromStdString(q.op)
                                : tr("%1 / %2").arg(where, QString::fromStdString(q.op));
    }
    if (q.stack_unknown) {
        where = tr("unknown (the event names a stack the run does not have)");
    } else if (where.isEmpty()) {
        where = tr("no module or operator on its stack");
    }
    setFigure(QStringLiteral("oom_stack"), where,
              q.stack.empty() ? QString() : tr("Stack: %1").arg(QString::fromStdString(q.stack)));
    QString device = x.capacityKnown() ? tr("capacity %1").arg(bytes(x.capacity()))
                                       : tr("capacity not recorded");
    device += tr(", allocated %1").arg(bytes(x.allocated()));
    if (x.hasSegments()) {
        device += tr(", reserved %1 (%2 free inside its segments, %3 not reserved)")
                      .arg(bytes(x.reserved()), bytes(x.freeInSegments()), bytes(x.unreserved()));
    }
    device += tr(": %1 free").arg(exact(x.freeBytes()));
    setFigure(QStringLiteral("oom_device"), device);
    QString verdict;
    switch (x.verdict()) {
        case OomExplanation::Verdict::Capacity:
            verdict = tr("<b>Capacity</b>: %1 free is less than the %2 requested. The memory in "
                         "use has to shrink, or the device to grow.")
                          .arg(exact(x.freeBytes()), exact(q.bytes));
            break;
        case OomExplanation::Verdict::Fragmentation:
            verdict = tr("<b>Fragmentation</b>: %1 free is at least the %2 requested, but it "
                         "lies in %n piece(s) and the largest is %3. %4 lets the allocator grow a "
                         "segment instead of needing one free block that large.",
                         nullptr, int(x.freeRegions()))
                          .arg(exact(x.freeBytes()), exact(q.bytes), exact(x.largestFreeRegion()),
                               QStringLiteral("<code>%1</code>")
                                   .arg(QLatin1String(OomExplanation::fragmentationSetting())));
            break;
        case OomExplanation::Verdict::Undetermined:
            verdict =
                !x.capacityKnown() ? tr("<b>Undetermined</b>: the run does not record the device's "
                                        "capacity.")
                : !x.hasSegments()
                    ? tr("<b>Undetermined</b>: %1 free is at least the %2 requested, and "
                         "the run has no allocator segments to tell where it lies.")
                          .arg(exact(x.freeBytes()), exact(q.bytes))
                    : tr("<b>Undetermined</b>: %1 free is at least the %2 requested and a "
                         "free region of %3 exists; the allocator could not use it "
                         "(another stream's or pool's segment, or rounding).")
                          .arg(exact(x.freeBytes()), exact(q.bytes), exact(x.largestFreeRegion()));
            break;
    }
    if (QLabel* label = m_values.value(QStringLiteral("oom_verdict"))) {
        label->setTextFormat(Qt::RichText);
    }
    setFigure(QStringLiteral("oom_verdict"), verdict);
    QStringList categories;
    for (const auto& [name, b] : x.categories()) {
        const auto category = parseCategory(name);
        categories << tr("%1 %2").arg(
            category ? TimelineLabels::categoryName(int(*category)) : QString::fromStdString(name),
            bytes(b));
    }
    setFigure(QStringLiteral("oom_categories"), categories.isEmpty()
                                                    ? tr("nothing the run recorded was alive")
                                                    : categories.join(QStringLiteral(", ")));
    QStringList modules;
    for (const auto& m : x.modules()) {
        if (modules.size() == 8) {
            modules << QStringLiteral("…");
            break;
        }
        modules << QStringLiteral("%1%2  %3")
                       .arg(QString(m.depth * 4, QChar(0x2002)),
                            m.path.empty() ? tr("(no module)") : QString::fromStdString(m.path),
                            bytes(m.held));
    }
    setFigure(
        QStringLiteral("oom_modules"),
        modules.isEmpty() ? tr("no module held memory") : modules.join(QLatin1Char('\n')),
        tr("The Modules view at the out-of-memory event: %1 alive").arg(exact(x.aliveBytes())));
    showOomAdvice();
}

void SummaryPage::showOomAdvice() {
    const Result* r = m_result.get();
    if (!r || !r->oom) {
        return;
    }
    auto bytes = [](int64_t b) { return QString::fromStdString(formatBytes(b)); };
    const bool program = !r->program_command.empty();
    m_sweep_button->setVisible(program);
    QStringList lines;
    QString tip;
    if (r->advised) {
        int n = 0;
        for (const auto& s : r->advice) {
            lines << tr("%1. %2 (%3): predicted peak %4, headroom %5")
                         .arg(++n)
                         .arg(QString::fromStdString(s.change), QString::fromStdString(s.summary),
                              bytes(s.predicted_peak), bytes(s.headroom));
        }
        if (lines.isEmpty()) {
            lines << tr("No single change the planner models fits %1.")
                         .arg(bytes(r->oom->capacity()));
        }
        tip =
            tr("The planner's prediction for this run's configuration with one change; "
               "memscope-cli record --check-advice reruns the first and measures it.");
    } else if (program && m_sweep_advice) {
        const auto& a = *m_sweep_advice;
        QStringList sizes;
        for (const auto& [name, value] : a.sizes) {
            sizes << QStringLiteral("%1=%2").arg(QString::fromStdString(name)).arg(value);
        }
        lines << tr("The fit of %1 predicts %2 at %3.")
                     .arg(m_sweep_dir, bytes(a.predicted_peak), sizes.join(QStringLiteral(", ")));
        int n = 0;
        for (const auto& s : a.suggestions) {
            lines << tr("%1. %2=%3 (was %4): predicted peak %5, headroom %6")
                         .arg(++n)
                         .arg(QString::fromStdString(s.size))
                         .arg(s.to)
                         .arg(s.from)
                         .arg(bytes(s.predicted_peak), bytes(s.headroom));
        }
        if (a.suggestions.empty()) {
            lines << tr("No single change of batch or context fits.");
        }
        for (const auto& note : a.notes) {
            lines << tr("(%1)").arg(QString::fromStdString(note));
        }
        tip = tr("With %1% to spare for the fit's largest error on the sweep points it left out; "
                 "memscope-cli record --fit DIR --check-advice reruns the first and measures it.")
                  .arg(a.margin * 100.0, 0, 'f', 1);
    } else if (program) {
        lines << (m_sweep_error.isEmpty()
                      ? tr("Memscope's planner does not model this program's own model: a sweep "
                           "of the program (memscope-cli sweep --python) predicts it.")
                      : m_sweep_error);
    } else {
        lines << tr("No configuration is known for this run to advise on.");
    }
    setFigure(QStringLiteral("oom_advice"), lines.join(QLatin1Char('\n')), tip);
}

bool SummaryPage::adviseFromSweep(const QString& dir) {
    const Result* r = m_result.get();
    m_sweep_advice.reset();
    m_sweep_error.clear();
    m_sweep_dir = dir;
    if (!r || !r->oom || r->program_command.empty()) {
        m_sweep_error = tr("This run is not a Python program's that ran out of memory.");
        showOomAdvice();
        return false;
    }
    try {
        const auto sweep = ProgramSweep::load(dir.toStdString());
        const auto fit = ProgramMemoryFit::fit(sweep.samples());
        m_sweep_advice =
            ProgramFitAdvice::advise(sweep, fit, r->program_command, r->oom->capacity());
    } catch (const std::exception& e) {
        m_sweep_error = tr("Cannot advise from the sweep %1: %2").arg(dir, errorText(e));
    }
    showOomAdvice();
    return m_sweep_advice.has_value();
}

void SummaryPage::chooseSweep() {
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("A sweep of this program (memscope-cli sweep --python)"), m_sweep_dir);
    if (!dir.isEmpty()) {
        adviseFromSweep(dir);
    }
}

void SummaryPage::fillRooflineTable() {
    const QLocale locale;
    const Result* r = m_result.get();
    m_roofline_table->setSortingEnabled(false);
    m_roofline_table->setRowCount(0);
    if (!r) {
        return;
    }
    const auto& ops = r->roofline.ops;
    m_roofline_table->setRowCount(int(ops.size()));
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
            m_roofline_table->setItem(i, c, item);
        }
    }
    m_roofline_table->resizeColumnsToContents();
}

void SummaryPage::updateChart() {
    auto* chart = new QChart;
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 4, 4));
    const Result* r = m_result.get();
    if (r) {
        const auto& bytes = r->statistics.bytes_by_category_at_peak;
        int64_t top = 0;
        QStringList names;
        std::vector<int> shown;
        // The category axis runs bottom-up: add in reverse so it reads Parameter, ... top-down.
        for (int c = kCategoryCount - 1; c >= 0; --c) {
            if (bytes[size_t(c)] > 0) {
                shown.push_back(c);
                names << TimelineLabels::categoryName(c);
                top = std::max(top, bytes[size_t(c)]);
            }
        }
        // One set per category, each with its value in its own row, so every bar has the
        // category's timeline colour.
        auto* series = new QHorizontalStackedBarSeries;
        const double mib = 1024.0 * 1024.0;
        for (size_t i = 0; i < shown.size(); ++i) {
            auto* set = new QBarSet(names[int(i)]);
            for (size_t j = 0; j < shown.size(); ++j) {
                *set << (i == j ? double(bytes[size_t(shown[i])]) / mib : 0.0);
            }
            set->setColor(TimelineView::categoryColor(shown[i]));
            set->setLabelColor(Qt::black);
            series->append(set);
        }
        series->setLabelsVisible(false);
        chart->addSeries(series);
        auto* y = new QBarCategoryAxis;
        y->append(names);
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(y);
        auto* x = new QValueAxis;
        x->setRange(0, std::max(1.0, double(top) / mib * 1.05));
        x->setLabelFormat(QStringLiteral("%.0f"));
        x->setTitleText(tr("MiB at the peak"));
        chart->addAxis(x, Qt::AlignBottom);
        series->attachAxis(x);
        const QString peak = QString::fromStdString(formatBytes(r->statistics.peak_bytes));
        chart->setTitle(r->categories_inferred
                            ? tr("Bytes by category at the peak (%1), categories inferred from "
                                 "the snapshot")
                                  .arg(peak)
                            : tr("Bytes by category at the peak (%1)").arg(peak));
    }
    QChart* old = m_chart_view->chart();
    m_chart_view->setChart(chart);
    delete old;
}

void SummaryPage::onRooflineSelection() {
    const Result* r = m_result.get();
    const auto rows = m_roofline_table->selectionModel()->selectedRows();
    QVector<qint64> allocations;
    if (r && !rows.isEmpty() && r->operators) {
        const QString name = m_roofline_table->item(rows.first().row(), 0)->text();
        const auto& table = *r->operators;
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

void SummaryPage::retranslateUi() {
    m_rank_box->setTitle(tr("Ranks"));
    m_rank_table->setHorizontalHeaderLabels({tr("Rank"), tr("Peak allocated"), tr("Step 1 peak"),
                                             tr("Steady peak"), tr("Avg step"),
                                             tr("Collective payload"), tr("Events")});
    fillRankTable();
    followFilter();
    m_memory_box->setTitle(tr("Memory"));
    m_oom_box->setTitle(tr("Out of memory"));
    m_sweep_button->setText(tr("Advice from a sweep of this program..."));
    m_speed_box->setTitle(tr("Throughput"));
    m_chart_box->setTitle(tr("At the peak"));
    m_roofline_box->setTitle(tr("Roofline"));
    const std::pair<const char*, QString> names[] = {
        {"peak", tr("Peak allocated:")},
        {"step1_peak", tr("Peak in step 1:")},
        {"steady_peak", tr("Peak in later steps:")},
        {"average", tr("Average allocated:")},
        {"peak_to_average", tr("Peak / average:")},
        {"forward_peak", tr("Forward peak:")},
        {"backward_peak", tr("Backward peak:")},
        {"optimizer_peak", tr("Optimizer peak:")},
        {"peak_at", tr("Peak reached in:")},
        {"category_rules", tr("Categories at the peak:")},
        {"before_recording", tr("Before recording:")},
        {"reserved_peak", tr("Reserved peak:")},
        {"fragmentation_peak", tr("Fragmentation at the peak:")},
        {"fragmentation_oom", tr("Fragmentation at the OOM:")},
        {"oom_request", tr("Request:")},
        {"oom_stack", tr("Where:")},
        {"oom_device", tr("Device:")},
        {"oom_verdict", tr("Why:")},
        {"oom_categories", tr("Filled by:")},
        {"oom_modules", tr("Modules:")},
        {"oom_advice", tr("What fits:")},
        {"samples_per_s", tr("Samples/s:")},
        {"tokens_per_s", tr("Tokens/s:")},
        {"tflops", tr("Model TFLOP/s:")},
        {"mfu", tr("MFU:")},
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
    for (const auto& [key, text] : names) {
        if (QLabel* label = m_names.value(QLatin1String(key))) {
            label->setText(text);
        }
    }
    m_roofline_table->setHorizontalHeaderLabels(
        {tr("Operator"), tr("Calls"), tr("Time"), tr("FLOPs"), tr("Bytes read (est.)"),
         tr("Bytes written"), tr("FLOP/byte"), tr("Achieved FLOP/s"), tr("Bandwidth"),
         tr("Class")});
    if (m_result || !m_pending) {
        showResult();
    }
}

void SummaryPage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

}  // namespace memscope
