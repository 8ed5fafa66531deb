#include "studies/planner_page.h"

#include "common/byte_format.h"
#include "common/train_option_fields.h"
#include "error_text.h"
#include "runs/torch_part_loader.h"
#include "studies/program_fit_panel.h"

#include "analysis/run_statistics.h"
#include "device/device_discovery.h"
#include "device/peak_flops.h"
#include "model/config_error.h"
#include "model/preset.h"
#include "model/train_option_table.h"
#include "predict/planner.h"
#include "run/run_summary.h"
#include "torchpart/torch_part.h"
#include "trace/recorded_options.h"
#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedBarSeries>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

namespace memscope {

namespace {

QString durationText(double seconds) {
    if (seconds < 1) {
        return PlannerPage::tr("%1 ms").arg(QLocale().toString(seconds * 1e3, 'f', 1));
    }
    if (seconds < 3600) {
        return PlannerPage::tr("%1 s").arg(QLocale().toString(seconds, 'f', 2));
    }
    if (seconds < 2 * 86400) {
        return PlannerPage::tr("%1 hours").arg(QLocale().toString(seconds / 3600, 'f', 1));
    }
    return PlannerPage::tr("%1 days").arg(QLocale().toString(seconds / 86400, 'f', 1));
}

// The chart's groups: components as the recorder's categories see them, so that a measured run
// can stand next to the prediction.
enum Group { Params, Grads, Optimizer, Inputs, Activations, Temporaries, Workspace, GroupCount };

int groupOf(MemoryComponent component) {
    switch (component) {
        case MemoryComponent::Parameters:
            return Params;
        case MemoryComponent::Gradients:
            return Grads;
        case MemoryComponent::OptimizerState:
            return Optimizer;
        case MemoryComponent::Inputs:
            return Inputs;
        case MemoryComponent::Activations:
        case MemoryComponent::AutocastCache:
        case MemoryComponent::LogitsLoss:
            return Activations;
        case MemoryComponent::Temporaries:
            return Temporaries;
        case MemoryComponent::Workspace:
        case MemoryComponent::AllocatorOverhead:
            return Workspace;
    }
    return Temporaries;
}

QString groupName(int group) {
    switch (group) {
        case Params:
            return PlannerPage::tr("Parameters");
        case Grads:
            return PlannerPage::tr("Gradients");
        case Optimizer:
            return PlannerPage::tr("Optimizer state");
        case Inputs:
            return PlannerPage::tr("Inputs");
        case Activations:
            return PlannerPage::tr("Activations (incl. autocast cache, loss)");
        case Temporaries:
            return PlannerPage::tr("Temporaries");
        default:
            return PlannerPage::tr("Context and allocator overhead");
    }
}

// The recorder's categories (trace/category.h) in each group. Collective buffers (multi-rank
// runs) live for a collective, as temporaries do.
std::vector<Category> categoriesOf(int group) {
    switch (group) {
        case Params:
            return {Category::Parameter};
        case Grads:
            return {Category::Gradient};
        case Optimizer:
            return {Category::OptimizerState};
        case Inputs:
            return {Category::Input};
        case Activations:
            return {Category::Activation};
        case Temporaries:
            return {Category::Temporary, Category::AutogradDetail, Category::Unknown,
                    Category::Communication};
        default:
            return {};
    }
}

// The GPU in this machine when the device database knows it, else the CPU (as before). The GPUs
// are LibTorch's: until its part is loaded (in the background after the window shows), the CPU.
QString defaultDevice() {
    TorchPart* part = TorchPartLoader::loadedPart();
    const auto detected = part ? part->devices().plannerDefault() : std::string();
    return detected.empty() ? QStringLiteral("CPU") : QString::fromStdString(detected);
}

// The CPU's measured peak for the planner: LibTorch's GEMM, in its part (loaded now if it was not
// yet; without it the planner says it cannot measure).
double measureCpuPeak(Dtype dtype, int threads) {
    TorchPart* part = TorchPartLoader::part();
    if (!part) {
        throw std::runtime_error(TorchPartLoader::outcome().message().toStdString());
    }
    return part->peakFlopsOnCpu(dtype, threads).flops_per_s;
}

QComboBox* comboWith(const QStringList& items) {
    auto* combo = new QComboBox;
    combo->addItems(items);
    return combo;
}

QSpinBox* spinBox(int64_t minimum, int64_t maximum, int value) {
    auto* spin = new QSpinBox;
    spin->setRange(int(minimum), int(maximum));
    spin->setValue(value);
    spin->setKeyboardTracking(false);
    return spin;
}

// The Planner's option fields: plain labels (the Run panel in the same window has the
// accelerators), plain numbers, choices by their names, a prediction once a number is typed in
// full.
TrainOptionFields::Look plannerLook() {
    TrainOptionFields::Look look;
    look.mnemonics = false;
    look.group_separators = false;
    look.keyboard_tracking = false;
    look.compact_combos = false;
    look.choice_texts = false;
    return look;
}

}  // namespace

PlannerPage::PlannerPage(QWidget* parent, bool predict_when_shown)
    : QWidget(parent), m_predictWhenShown(predict_when_shown) {
    buildUi();
    retranslate();
    try {
        m_planner = std::make_unique<Planner>(DeviceDatabase::loadDefault(), &measureCpuPeak);
        for (const auto& device : m_planner->database().devices()) {
            m_device->addItem(QString::fromStdString(device.name));
        }
        m_device->setCurrentText(defaultDevice());
        // This machine's GPU once the part is loaded, unless the form shows another device or
        // a measured run by then.
        connect(TorchPartLoader::instance(), &TorchPartLoader::ready, this, [this] {
            const QString detected = defaultDevice();
            if (!m_measured && detected != QLatin1String("CPU") &&
                m_device->currentText() == QLatin1String("CPU")) {
                m_device->setCurrentText(detected);
            }
        });
    } catch (const ConfigError& e) {
        showError(errorText(e));
    }
    applyPreset();
}

PlannerPage::~PlannerPage() = default;

qint64 PlannerPage::predictedPeak() const {
    return m_result ? m_result->per_gpu_total : 0;
}

void PlannerPage::buildUi() {
    m_modelBox = new QGroupBox;
    m_modelForm = new QFormLayout(m_modelBox);
    m_runBox = new QGroupBox;
    m_runForm = new QFormLayout(m_runBox);
    // The training options' fields and labels come from their rows (TrainOptionTable), as the
    // Run panel's do; the preset fills the others (applyPreset).
    m_optionFields = TrainOptionFields::add(m_modelForm, &TrainOptionRow::planner_page,
                                            FormGroup::Model, plannerLook());
    m_optionFields += TrainOptionFields::add(m_runForm, &TrainOptionRow::planner_page,
                                             FormGroup::Run, plannerLook());
    m_preset = m_modelBox->findChild<QComboBox*>(QStringLiteral("preset"));
    m_device = new QComboBox;
    m_gpus = spinBox(1, 65536, 1);
    QStringList strategies;
    for (const auto& name : parallelStrategyNames()) {
        strategies << QString::fromStdString(name);
    }
    m_strategy = comboWith(strategies);
    m_zero = spinBox(0, 3, 0);

    m_clusterForm = new QFormLayout;
    m_clusterForm->addRow(new QLabel, m_device);
    m_clusterForm->addRow(new QLabel, m_gpus);
    m_clusterForm->addRow(new QLabel, m_strategy);
    m_clusterForm->addRow(new QLabel, m_zero);
    m_clusterBox = new QGroupBox;
    m_clusterBox->setLayout(m_clusterForm);

    auto* form = new QWidget;
    auto* formLayout = new QVBoxLayout(form);
    formLayout->addWidget(m_modelBox);
    formLayout->addWidget(m_runBox);
    formLayout->addWidget(m_clusterBox);
    formLayout->addStretch();
    TrainOptionFields::linkNeeds(form);  // the optimizer only for training
    auto* scroll = new QScrollArea;
    scroll->setWidget(form);
    scroll->setWidgetResizable(true);

    m_verdictLabel = new QLabel;
    m_verdictLabel->setWordWrap(true);
    m_peakLabel = new QLabel;
    m_peakLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_timeLabel = new QLabel;
    m_timeLabel->setWordWrap(true);
    m_bottleneckLabel = new QLabel;
    m_bottleneckLabel->setWordWrap(true);
    m_chartView = new QChartView(new QChart);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(260);
    auto* resultLayout = new QVBoxLayout;
    resultLayout->addWidget(m_verdictLabel);
    resultLayout->addWidget(m_peakLabel);
    resultLayout->addWidget(m_timeLabel);
    resultLayout->addWidget(m_bottleneckLabel);
    resultLayout->addWidget(m_chartView, 1);
    m_resultBox = new QGroupBox;
    m_resultBox->setLayout(resultLayout);

    m_strategies = new QTableWidget(0, 5);
    m_strategies->verticalHeader()->hide();
    m_strategies->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_strategies->horizontalHeader()->setStretchLastSection(true);
    m_strategyBox = new QGroupBox;
    (new QVBoxLayout(m_strategyBox))->addWidget(m_strategies);

    m_recommendations = new QTreeWidget;
    m_recommendations->setColumnCount(4);
    m_recommendations->setRootIsDecorated(false);
    m_recommendationBox = new QGroupBox;
    (new QVBoxLayout(m_recommendationBox))->addWidget(m_recommendations);

    m_overlay = new QTableWidget(0, 4);
    m_overlay->verticalHeader()->hide();
    m_overlay->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_overlay->horizontalHeader()->setStretchLastSection(true);
    m_overlayBox = new QGroupBox;
    (new QVBoxLayout(m_overlayBox))->addWidget(m_overlay);
    m_overlayBox->hide();

    auto* results = new QWidget;
    auto* resultsLayout = new QVBoxLayout(results);
    resultsLayout->addWidget(m_resultBox, 2);
    resultsLayout->addWidget(m_overlayBox, 1);
    resultsLayout->addWidget(m_strategyBox, 1);
    resultsLayout->addWidget(m_recommendationBox, 1);
    m_programFit = new ProgramFitPanel;
    resultsLayout->addWidget(m_programFit, 1);
    auto* resultsScroll = new QScrollArea;
    resultsScroll->setWidget(results);
    resultsScroll->setWidgetResizable(true);

    auto* splitter = new QSplitter;
    splitter->addWidget(scroll);
    splitter->addWidget(resultsScroll);
    splitter->setStretchFactor(1, 1);
    scroll->setMinimumWidth(form->sizeHint().width() + 48);  // the form and a scroll bar
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_preset, &QComboBox::currentIndexChanged, this, &PlannerPage::applyPreset);
    for (QWidget* field : m_optionFields) {
        if (field == m_preset) {
            continue;
        }
        if (auto* spin = qobject_cast<QSpinBox*>(field)) {
            connect(spin, &QSpinBox::valueChanged, this, &PlannerPage::updatePrediction);
        } else if (auto* combo = qobject_cast<QComboBox*>(field)) {
            connect(combo, &QComboBox::currentIndexChanged, this, &PlannerPage::updatePrediction);
        } else if (auto* check = qobject_cast<QCheckBox*>(field)) {
            connect(check, &QCheckBox::toggled, this, &PlannerPage::updatePrediction);
        }
    }
    for (auto* spin : {m_gpus, m_zero}) {
        connect(spin, &QSpinBox::valueChanged, this, &PlannerPage::updatePrediction);
    }
    for (auto* combo : {m_device, m_strategy}) {
        connect(combo, &QComboBox::currentIndexChanged, this, &PlannerPage::updatePrediction);
    }
}

void PlannerPage::retranslate() {
    m_modelBox->setTitle(tr("Model"));
    m_runBox->setTitle(tr("Run"));
    m_clusterBox->setTitle(tr("Device and cluster"));
    m_resultBox->setTitle(tr("Prediction"));
    m_strategyBox->setTitle(tr("Strategy comparison"));
    m_recommendationBox->setTitle(tr("Recommendations"));
    m_overlayBox->setTitle(tr("Predicted against measured (open run)"));
    TrainOptionFields::retranslate(m_modelForm, plannerLook());
    TrainOptionFields::retranslate(m_runForm, plannerLook());
    const QStringList clusterLabels{tr("Device:"), tr("GPUs:"), tr("Strategy:"), tr("ZeRO stage:")};
    for (int i = 0; i < clusterLabels.size(); ++i) {
        if (auto* label =
                qobject_cast<QLabel*>(m_clusterForm->itemAt(i, QFormLayout::LabelRole)->widget())) {
            label->setText(clusterLabels[i]);
        }
    }
    m_strategies->setHorizontalHeaderLabels(
        {tr("Strategy"), tr("Per GPU"), tr("Fits"), tr("Step time"), tr("Efficiency")});
    m_recommendations->setHeaderLabels(
        {tr("Priority"), tr("Recommendation"), tr("Saves per GPU"), tr("Option")});
    m_overlay->setHorizontalHeaderLabels(
        {tr("Component"), tr("Predicted"), tr("Measured"), tr("Error")});
    m_runBox->findChild<QComboBox*>(QStringLiteral("dtype"))
        ->setToolTip(tr("bf16 and fp16 are autocast: fp32 weights stay, a low-precision "
                        "copy of each weight is cached for the step"));
    m_runBox->findChild<QComboBox*>(QStringLiteral("attention"))
        ->setToolTip(tr("memory-efficient keeps no S x S matrices (like flash "
                        "attention on a GPU)"));
    if (m_result) {
        showResult();
    }
}

void PlannerPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_predictionStale) {
        updatePrediction();
    }
}

void PlannerPage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QWidget::changeEvent(event);
}

void PlannerPage::applyPreset() {
    if (m_filling) {
        return;
    }
    try {
        auto options = TrainOptions::fromPreset(m_preset->currentText().toStdString());
        fillForm(options);
    } catch (const ConfigError& e) {
        showError(errorText(e));
    }
}

void PlannerPage::fillForm(const TrainOptions& o) {
    m_filling = true;
    {
        std::vector<QSignalBlocker> blocks;
        blocks.reserve(size_t(m_optionFields.size()));
        for (QWidget* field : m_optionFields) {
            blocks.emplace_back(field);
        }
        TrainOptionFields::show(this, o, &TrainOptionRow::planner_page);
    }
    m_filling = false;
    updatePrediction();
}

PlanRequest PlannerPage::requestFromForm() const {
    PlanRequest r;
    auto& o = r.workload;
    o = TrainOptionFields::read(this, o, &TrainOptionRow::planner_page);
    r.device = m_device->currentText().toStdString();
    r.parallel.gpus = m_gpus->value();
    r.parallel.strategy = parseParallelStrategy(m_strategy->currentText().toStdString())
                              .value_or(ParallelStrategy::Single);
    if (r.parallel.strategy == ParallelStrategy::Hybrid) {
        r.parallel.tensor = r.parallel.gpus % 2 == 0 ? 2 : 1;  // the rest data parallel
    }
    r.parallel.zero_stage = m_zero->value();
    if (m_measured) {
        const double mfu = m_measuredMfu;
        if (mfu > 0 && m_measuredOnCpu && r.device == "CPU") {
            r.mfu = mfu;
            r.mfu_source = "calibrated from the open run";
        }
    }
    return r;
}

void PlannerPage::updatePrediction() {
    if (m_filling || !m_planner) {
        return;
    }
    if (m_predictWhenShown && !isVisible()) {
        m_predictionStale = true;
        return;
    }
    m_predictionStale = false;
    try {
        m_result = std::make_unique<PlanResult>(m_planner->plan(requestFromForm()));
    } catch (const ConfigError& e) {
        m_result.reset();
        showError(errorText(e));
        return;
    } catch (const std::exception& e) {
        m_result.reset();
        showError(errorText(e));
        return;
    }
    showResult();
}

void PlannerPage::showError(const QString& message) {
    m_verdictLabel->setText(tr("<b>Cannot predict:</b> %1").arg(message.toHtmlEscaped()));
    m_peakLabel->clear();
    m_timeLabel->clear();
    m_bottleneckLabel->clear();
    m_strategies->setRowCount(0);
    m_recommendations->clear();
    m_chartView->chart()->removeAllSeries();
}

void PlannerPage::showResult() {
    const auto& r = *m_result;
    m_programFit->setDevice(&r.device);
    const QString device = QString::fromStdString(r.device.name);
    if (r.fits) {
        m_verdictLabel->setText(tr("<b style='color:#2e7d32'>Fits</b> on %1: %2 of %3 usable, "
                                   "%4 headroom")
                                    .arg(device, bytesText(double(r.per_gpu_total)),
                                         bytesText(double(r.usable)),
                                         bytesText(double(r.headroom))));
    } else {
        m_verdictLabel->setText(tr("<b style='color:#c62828'>Exceeds capacity</b> of %1: %2 "
                                   "needed, %3 usable, %4 over")
                                    .arg(device, bytesText(double(r.per_gpu_total)),
                                         bytesText(double(r.usable)),
                                         bytesText(double(-r.headroom))));
    }
    m_peakLabel->setText(tr("Predicted peak per GPU: %1 (%2 bytes); step 1: %3, steady: %4")
                             .arg(bytesText(double(r.per_gpu_total)), exactBytes(r.per_gpu_total),
                                  bytesText(double(r.memory.first_step.peak)),
                                  bytesText(double(r.memory.steady_step.peak))) +
                         QLatin1Char('\n') +
                         tr("Forward only: inference under torch.no_grad %1; forward with "
                            "autograd on (every activation kept, no backward) %2")
                             .arg(bytesText(double(r.inference_peak)),
                                  bytesText(double(r.forward_with_autograd_peak))));
    m_peakLabel->setToolTip(exactBytes(r.per_gpu_total));
    m_timeLabel->setText(tr("Step time %1, %2 tokens/s, scaling efficiency %3%; MFU %4% (%5)")
                             .arg(durationText(r.time.step_s))
                             .arg(QLocale().toString(r.time.tokens_per_s, 'f', 0))
                             .arg(QLocale().toString(100 * r.time.scaling_efficiency, 'f', 0))
                             .arg(QLocale().toString(100 * r.time.mfu, 'f', 0))
                             .arg(QString::fromStdString(r.time.mfu_source)));
    QStringList bottlenecks;
    for (const auto& b : r.bottlenecks) {
        bottlenecks << QString::fromStdString(b.message);
    }
    m_bottleneckLabel->setText(
        bottlenecks.isEmpty() ? QString()
                              : tr("Bottlenecks: %1").arg(bottlenecks.join(QStringLiteral("; "))));

    m_strategies->setRowCount(int(r.strategies.size()));
    for (int row = 0; row < int(r.strategies.size()); ++row) {
        const auto& s = r.strategies[size_t(row)];
        m_strategies->setItem(row, 0,
                              new QTableWidgetItem(QString::fromStdString(s.parallel.describe())));
        m_strategies->setItem(row, 1, new QTableWidgetItem(bytesText(double(s.per_gpu_bytes))));
        m_strategies->setItem(row, 2, new QTableWidgetItem(s.fits ? tr("yes") : tr("no")));
        m_strategies->setItem(row, 3, new QTableWidgetItem(durationText(s.step_s)));
        m_strategies->setItem(
            row, 4,
            new QTableWidgetItem(QLocale().toString(100 * s.scaling_efficiency, 'f', 0) + '%'));
    }
    m_strategyBox->setVisible(!r.strategies.empty());

    m_recommendations->clear();
    for (const auto& rec : r.recommendations) {
        auto* item = new QTreeWidgetItem(m_recommendations);
        item->setText(0, QString::fromStdString(rec.priority));
        item->setText(1, QString::fromStdString(rec.title));
        item->setText(2, bytesText(double(rec.saving())));
        item->setToolTip(2, exactBytes(rec.saving()));
        item->setText(3, QString::fromStdString(rec.change));
    }
    for (int column = 0; column < m_recommendations->columnCount(); ++column) {
        m_recommendations->resizeColumnToContents(column);
    }
    updateChart();
    updateOverlay();
}

void PlannerPage::updateChart() {
    auto* chart = m_chartView->chart();
    chart->removeAllSeries();
    for (auto* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    if (!m_result) {
        return;
    }
    std::vector<double> predicted(GroupCount, 0.0);
    for (int i = 0; i < kMemoryComponentCount; ++i) {
        predicted[size_t(groupOf(static_cast<MemoryComponent>(i)))] += double(m_result->per_gpu[i]);
    }
    const bool measured = m_measuredPeak.has_value() && m_measuredGroups.size() == GroupCount;
    const double mib = double(1 << 20);
    auto* series = new QStackedBarSeries;
    for (int g = 0; g < GroupCount; ++g) {
        if (predicted[size_t(g)] == 0 && (!measured || m_measuredGroups[size_t(g)] == 0)) {
            continue;
        }
        auto* set = new QBarSet(groupName(g));
        *set << predicted[size_t(g)] / mib;
        if (measured) {
            *set << double(m_measuredGroups[size_t(g)]) / mib;
        }
        series->append(set);
    }
    chart->addSeries(series);
    auto* categories = new QBarCategoryAxis;
    categories->append(tr("Predicted"));
    if (measured) {
        categories->append(tr("Measured"));
    }
    chart->addAxis(categories, Qt::AlignBottom);
    series->attachAxis(categories);
    auto* values = new QValueAxis;
    values->setTitleText(tr("MiB per GPU"));
    values->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(values, Qt::AlignLeft);
    series->attachAxis(values);
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setTitle(tr("Memory at the predicted peak"));
}

void PlannerPage::setMeasuredTrace(std::shared_ptr<const Trace> trace) {
    m_measured = trace != nullptr;
    m_measuredOnCpu = trace && trace->meta.device == "cpu";
    m_measuredPeak.reset();
    m_measuredGroups.clear();
    m_measuredMfu = 0;
    if (trace) {
        const RunStatistics measured = RunStatistics::fromTrace(*trace);
        m_measuredPeak = measured.recorded_peak_bytes;
        m_measuredMfu = measured.mfu;
        m_measuredGroups.assign(GroupCount, 0);
        for (int g = 0; g < GroupCount; ++g) {
            for (const Category category : categoriesOf(g)) {
                m_measuredGroups[size_t(g)] += measured.bytes_by_category_at_peak[size_t(category)];
            }
        }
        if (const auto options = recordedOptions(trace->meta)) {
            {
                const QSignalBlocker a(m_device), b(m_gpus), c(m_strategy), d(m_zero);
                m_device->setCurrentText(QStringLiteral("CPU"));
                m_gpus->setValue(1);
                m_strategy->setCurrentText(QStringLiteral("single"));
                m_zero->setValue(0);
            }
            fillForm(*options);  // updates the prediction
        } else if (!trace->meta.config.is_null() && !trace->meta.config.empty()) {
            updatePrediction();  // a run without a usable configuration: overlay only
        }
    }
    m_overlayBox->setVisible(m_measuredPeak.has_value());
    if (m_result) {
        showResult();
    }
}

void PlannerPage::updateOverlay() {
    if (!m_measuredPeak || !m_result) {
        m_overlay->setRowCount(0);
        return;
    }
    // The prediction for one CPU device is what a recorded run measures: allocated bytes.
    std::vector<qint64> predicted(GroupCount, 0);
    const auto& at = m_result->memory.peakStep().at_peak;
    for (int i = 0; i < kAllocatedComponentCount; ++i) {
        predicted[size_t(groupOf(static_cast<MemoryComponent>(i)))] += at[i];
    }
    auto deviationText = [](qint64 p, qint64 m) {
        if (m == 0) {
            return p == 0 ? QStringLiteral("0%") : QStringLiteral("-");
        }
        return QLocale().toString(100.0 * double(p - m) / double(m), 'f', 2) + '%';
    };
    m_overlay->setRowCount(Workspace + 1);
    for (int g = 0; g < Workspace; ++g) {
        m_overlay->setItem(g, 0, new QTableWidgetItem(groupName(g)));
        m_overlay->setItem(g, 1, new QTableWidgetItem(bytesText(double(predicted[size_t(g)]))));
        m_overlay->setItem(g, 2,
                           new QTableWidgetItem(bytesText(double(m_measuredGroups[size_t(g)]))));
        m_overlay->setItem(
            g, 3,
            new QTableWidgetItem(deviationText(predicted[size_t(g)], m_measuredGroups[size_t(g)])));
    }
    const qint64 peak = m_result->memory.peak();
    auto* name = new QTableWidgetItem(tr("Peak"));
    QFont bold = name->font();
    bold.setBold(true);
    name->setFont(bold);
    m_overlay->setItem(Workspace, 0, name);
    auto* p = new QTableWidgetItem(bytesText(double(peak)));
    p->setToolTip(exactBytes(peak));
    m_overlay->setItem(Workspace, 1, p);
    auto* m = new QTableWidgetItem(bytesText(double(*m_measuredPeak)));
    m->setToolTip(exactBytes(*m_measuredPeak));
    m_overlay->setItem(Workspace, 2, m);
    m_overlay->setItem(Workspace, 3, new QTableWidgetItem(deviationText(peak, *m_measuredPeak)));
}

}  // namespace memscope
