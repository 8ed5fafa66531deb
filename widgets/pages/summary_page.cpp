#include "pages/summary_page.h"

#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "error_text.h"
#include "pages/oom_panel.h"
#include "pages/peak_category_chart.h"
#include "pages/roofline_panel.h"
#include "runs/torch_part_loader.h"

#include "run_document.h"

#include "torchpart/torch_part.h"
#include "trace/recorded_options.h"
#include "trace/trace.h"
#include "when_finished.h"

#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace memscope {

namespace {

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
const char* const kFilterKeys[] = {"filter_range", "filter_allocations", "filter_bytes",
                                   "filter_peak", "filter_categories"};
const char* const kSpeedKeys[] = {"samples_per_s", "tokens_per_s", "tflops", "mfu"};

}  // namespace

SummaryPage::SummaryPage(QWidget* parent) : QWidget(parent) {
    auto* content = new QWidget;
    m_filter_box = new QGroupBox(content);
    m_filter_box->setObjectName(QStringLiteral("filter_box"));
    m_filter_box->setLayout(new QFormLayout);
    for (const char* key : kFilterKeys) {
        m_figures.add(m_filter_box, QLatin1String(key))->setWordWrap(true);
    }
    m_filter_box->setVisible(false);
    m_oom = new OomPanel(content);
    m_memory_box = new QGroupBox(content);
    m_memory_box->setLayout(new QFormLayout);
    for (const char* key : kMemoryKeys) {
        m_figures.add(m_memory_box, QLatin1String(key));
    }
    m_figures.value(QStringLiteral("category_rules"))->setWordWrap(true);
    m_figures.value(QStringLiteral("before_recording"))->setWordWrap(true);
    m_speed_box = new QGroupBox(content);
    m_speed_box->setLayout(new QFormLayout);
    for (const char* key : kSpeedKeys) {
        m_figures.add(m_speed_box, QLatin1String(key));
    }
    m_chart = new PeakCategoryChart(content);
    m_roofline = new RooflinePanel(content);
    m_ranks = new RankSummaryTable(content);

    auto* grid = new QGridLayout(content);
    grid->addWidget(m_ranks, 0, 0, 1, 2);
    grid->addWidget(m_filter_box, 1, 0, 1, 2);
    grid->addWidget(m_oom, 2, 0, 1, 2);
    grid->addWidget(m_memory_box, 3, 0);
    grid->addWidget(m_chart, 3, 1, 2, 1);
    grid->addWidget(m_speed_box, 4, 0);
    grid->addWidget(m_roofline, 5, 0, 1, 2);
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

    connect(m_roofline, &RooflinePanel::allocationsHighlighted, this,
            &SummaryPage::allocationsHighlighted);
    retranslateUi();
}

SummaryPage::SummaryPage(RunDocument* document, QWidget* parent) : SummaryPage(parent) {
    setViewState(document);
}

SummaryPage::~SummaryPage() = default;

QString SummaryPage::figureText(const QString& key) const {
    for (const FigureForm* figures : {&m_figures, &m_oom->figures(), &m_roofline->figures()}) {
        if (figures->value(key)) {
            return figures->text(key);
        }
    }
    return QString();
}

QTableWidget* SummaryPage::rankTable() const {
    return m_ranks->table();
}

QChartView* SummaryPage::chartView() const {
    return m_chart->chartView();
}

QTableWidget* SummaryPage::rooflineTable() const {
    return m_roofline->table();
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
    r.parameters = ParameterInference::match(*trace);
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

void SummaryPage::setRanks(const QVector<RankRow>& ranks, int current) {
    m_ranks->setRanks(ranks, current);
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
    m_figures.setName(QStringLiteral("filter_range"), tr("Events"));
    m_figures.setName(QStringLiteral("filter_allocations"),
                      filter->mode == RangeFilter::Mode::AliveIn ? tr("Allocations alive in it")
                                                                 : tr("Allocations made in it"));
    m_figures.setName(QStringLiteral("filter_bytes"), tr("Their bytes"));
    m_figures.setName(QStringLiteral("filter_peak"), tr("Highest live total in it"));
    m_figures.setName(QStringLiteral("filter_categories"), tr("Their bytes by category"));
    m_figures.set(QStringLiteral("filter_range"),
                  tr("%1–%2 (%3 s – %4 s)")
                      .arg(locale.toString(qint64(filter->first)),
                           locale.toString(qint64(std::max(filter->first, filter->last - 1))),
                           locale.toString(double(sum.begin_ns) / 1e9, 'f', 3),
                           locale.toString(double(sum.end_ns) / 1e9, 'f', 3)));
    m_figures.set(QStringLiteral("filter_allocations"), locale.toString(qint64(sum.allocations)));
    m_figures.set(QStringLiteral("filter_bytes"), bytesText(sum.bytes));
    m_figures.set(QStringLiteral("filter_peak"),
                  sum.peak_event < 0 ? tr("none")
                                     : tr("%1 at event %2")
                                           .arg(bytesText(sum.peak_bytes),
                                                locale.toString(qint64(sum.peak_event))));
    QStringList parts;
    for (int c = 0; c < kCategoryCount; ++c) {
        if (sum.bytes_by_category[size_t(c)] > 0) {
            parts << QStringLiteral("%1 %2").arg(TimelineLabels::categoryName(c),
                                                 bytesText(sum.bytes_by_category[size_t(c)]));
        }
    }
    m_figures.set(QStringLiteral("filter_categories"), parts.join(QStringLiteral(", ")));
}

void SummaryPage::setTrace(std::shared_ptr<const Trace> trace) {
    m_trace = trace;
    m_oom->clearSweep();
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
        m_figures.clear();
        m_oom->clear();
        m_roofline->showResult(nullptr);
        m_status->setText(r           ? tr("Cannot summarize this run: %1").arg(r->error)
                          : m_pending ? tr("Computing the summary...")
                                      : tr("No run open."));
        m_chart->showResult(r);
        m_oom->showResult(m_result);
        followFilter();  // its figures do not wait for the summary
        return;
    }
    const RunStatistics& s = r->statistics;
    auto bytes = [&locale](int64_t b) {
        return std::make_pair(bytesText(b), tr("%1 bytes").arg(locale.toString(qint64(b))));
    };
    auto set_bytes = [&](const char* key, int64_t b) {
        const auto [text, tip] = bytes(b);
        m_figures.set(QLatin1String(key), text, tip);
    };
    const QString none = tr("n/a");
    set_bytes("peak", s.peak_bytes);
    set_bytes("step1_peak", s.step1_peak_bytes);
    if (s.steady_peak_bytes > 0) {
        set_bytes("steady_peak", s.steady_peak_bytes);
    } else {
        m_figures.set(QStringLiteral("steady_peak"), tr("n/a (one step)"));
    }
    set_bytes("average", s.avg_bytes);
    m_figures.set(QStringLiteral("peak_to_average"),
                  s.peak_to_avg > 0 ? locale.toString(s.peak_to_avg, 'f', 2) : none);
    // An import's phases (and so its per-phase peaks and categories) are inferred from the
    // snapshot's frames and annotations: said beside each figure that rests on them.
    const bool inferred = r->categories_inferred;
    auto set_phase_bytes = [&](const char* key, int64_t b) {
        const auto [text, tip] = bytes(b);
        m_figures.set(QLatin1String(key), inferred ? tr("%1 (inferred)").arg(text) : text, tip);
    };
    set_phase_bytes("forward_peak", s.forward_peak_bytes);
    set_phase_bytes("backward_peak", s.backward_peak_bytes);
    set_phase_bytes("optimizer_peak", s.optimizer_peak_bytes);
    QString peak_at =
        s.peak_phase.empty()
            ? none
            : tr("step %1, %2").arg(s.peak_step).arg(QString::fromStdString(s.peak_phase));
    m_figures.set(QStringLiteral("peak_at"),
                  inferred && !s.peak_phase.empty() ? tr("%1 (inferred)").arg(peak_at) : peak_at);
    // Which rule put each category's bytes there (imports: their categories are inferred).
    QStringList rules;
    for (size_t c = 0; c < r->rules_at_peak.size(); ++c) {
        if (r->rules_at_peak[c].bytes > 0) {
            rules << TimelineLabels::categoryWithRule(int(c), r->rules_at_peak[c].rule, true);
        }
    }
    m_figures.set(QStringLiteral("category_rules"),
                  inferred ? rules.join(QLatin1Char('\n')) : QString(),
                  tr("At the peak, the rule that put the most bytes in each category."));
    if (auto* form = static_cast<QFormLayout*>(m_memory_box->layout())) {
        form->setRowVisible(m_figures.value(QStringLiteral("category_rules")), inferred);
    }
    if (r->before_recording_bytes > 0 && r->parameters.applies()) {
        const auto [text, tip] = bytes(r->before_recording_bytes);
        QString what = tr("%1 allocated before recording started; of it the model's parameters, "
                          "%2 (inferred: one block per gradient of step %3 by size)")
                           .arg(text, bytesText(r->parameters.parameter_bytes))
                           .arg(r->parameters.step);
        if (r->parameters.states > 0) {
            what = tr("%1, and optimizer state beside them, %2")
                       .arg(what, bytesText(r->parameters.state_bytes));
        }
        m_figures.set(QStringLiteral("before_recording"), tr("%1.").arg(what), tip);
    } else if (r->before_recording_bytes > 0) {
        const auto [text, tip] = bytes(r->before_recording_bytes);
        m_figures.set(
            QStringLiteral("before_recording"),
            tr("%1 allocated before recording started. These are usually the model's "
               "parameters, and after warm-up steps also gradients and optimizer state. To "
               "see them, start recording before building the model.")
                .arg(text),
            tip);
    } else {
        m_figures.set(QStringLiteral("before_recording"), tr("none"));
    }
    // Reserved memory: a caching allocator's figures, or why there are none.
    const ReservedMemory& reserved = r->reserved;
    auto fragmentation = [&](const ReservedMemory::Point& p) {
        QString text =
            tr("%1 free of %2 reserved").arg(bytesText(p.free_bytes), bytesText(p.reserved));
        if (p.largest_free_block >= 0) {
            text += tr(", largest free block %1").arg(bytesText(p.largest_free_block));
        }
        return text;
    };
    if (reserved.cachingAllocator()) {
        set_bytes("reserved_peak", reserved.peakReserved());
        m_figures.set(QStringLiteral("fragmentation_peak"), fragmentation(reserved.atPeak()),
                      tr("%1 bytes reserved minus %2 bytes allocated")
                          .arg(locale.toString(qint64(reserved.atPeak().reserved)),
                               locale.toString(qint64(reserved.atPeak().allocated))));
        m_figures.set(QStringLiteral("fragmentation_oom"), reserved.atOom()
                                                               ? fragmentation(*reserved.atOom())
                                                               : tr("no out-of-memory event"));
    } else if (!reserved.onCpu()) {
        m_figures.set(QStringLiteral("reserved_peak"), tr("not recorded"),
                      tr("This GPU run has neither segments nor reserved totals (the snapshot did "
                         "not include them)."));
        m_figures.set(QStringLiteral("fragmentation_peak"), none);
        m_figures.set(QStringLiteral("fragmentation_oom"), none);
    } else {
        m_figures.set(QStringLiteral("reserved_peak"), tr("no caching allocator (CPU)"),
                      tr("The CPU allocator reserves nothing beyond what it hands out."));
        m_figures.set(QStringLiteral("fragmentation_peak"), none);
        m_figures.set(QStringLiteral("fragmentation_oom"), none);
    }
    if (s.has_timing) {
        m_figures.set(QStringLiteral("samples_per_s"), locale.toString(s.samples_per_s, 'f', 1));
        m_figures.set(QStringLiteral("tokens_per_s"), locale.toString(s.tokens_per_s, 'f', 0));
        m_figures.set(QStringLiteral("tflops"), locale.toString(s.model_tflops_per_s, 'f', 4));
        m_figures.set(QStringLiteral("mfu"),
                      s.mfu > 0 ? tr("%1 % of %2 TFLOP/s")
                                      .arg(locale.toString(100.0 * s.mfu, 'f', 1),
                                           locale.toString(s.peak_tflops_per_s, 'f', 3))
                                : none,
                      QString::fromStdString(s.peak_tflops_method));
    } else {
        for (const char* key : kSpeedKeys) {
            m_figures.set(QLatin1String(key), none);
        }
    }

    m_roofline->showResult(r);
    m_chart->showResult(r);
    m_oom->showResult(m_result);
    m_status->setText(
        tr("%1: %2 events, %3 allocations")
            .arg(r->source, locale.toString(r->events), locale.toString(r->allocations)));
}

bool SummaryPage::adviseFromSweep(const QString& dir) {
    return m_oom->adviseFromSweep(dir);
}

void SummaryPage::retranslateUi() {
    m_ranks->retranslateUi();
    followFilter();
    m_memory_box->setTitle(tr("Memory"));
    m_oom->retranslateUi();
    m_speed_box->setTitle(tr("Throughput"));
    m_chart->retranslateUi();
    m_roofline->retranslateUi();
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
        {"samples_per_s", tr("Samples/s:")},
        {"tokens_per_s", tr("Tokens/s:")},
        {"tflops", tr("Model TFLOP/s:")},
        {"mfu", tr("MFU:")},
    };
    m_figures.setNames(names);
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
