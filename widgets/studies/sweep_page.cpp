#include "studies/sweep_page.h"

#include "error_text.h"
#include "io/atomic_file.h"
#include "itemmodels/sweep_table_model.h"
#include "model/cancellation.h"
#include "model/config_error.h"
#include "model/preset.h"
#include "run/byte_size.h"
#include "runs/torch_part_loader.h"
#include "studies/scaling_series.h"
#include "studies/seed_tables.h"
#include "studies/sweep_runner.h"
#include "torchpart/torch_part.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

namespace memscope {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// One line (or the out-of-memory markers) of a chart.
struct Curve {
    QString name;
    QList<QPointF> points;
    QColor color;
    Qt::PenStyle style = Qt::SolidLine;
    bool markers = false;    // scatter: out-of-memory points
    bool secondary = false;  // plotted against the right-hand axis
};

const QColor kPalette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e),
                           QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
                           QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2),
                           QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22)};

QColor paletteColor(size_t i) {
    return kPalette[i % (sizeof kPalette / sizeof kPalette[0])];
}

QAbstractAxis* makeAxis(bool log, double base, const QString& title, const QList<QPointF>& pts,
                        bool x) {
    if (log) {
        auto* axis = new QLogValueAxis;
        axis->setBase(base);
        axis->setLabelFormat(x ? "%g" : "%.3g");
        axis->setTitleText(title);
        double lo = INFINITY, hi = 0;
        for (const auto& p : pts) {
            const double v = x ? p.x() : p.y();
            if (v > 0) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
        if (hi > 0) {
            axis->setRange(lo / 1.3, hi * 1.3);
        }
        if (x) {
            axis->setMinorTickCount(0);
        }
        return axis;
    }
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setLabelFormat("%g");
    double hi = 0;
    for (const auto& p : pts) {
        hi = std::max(hi, x ? p.x() : p.y());
    }
    axis->setRange(0, hi > 0 ? hi * 1.1 : 1);
    axis->applyNiceNumbers();
    return axis;
}

void fillChart(QChart* chart, const QString& title, const std::vector<Curve>& curves,
               const QString& x_title, const QString& y_title, const QString& y2_title, bool log) {
    chart->removeAllSeries();
    for (auto* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    chart->setTitle(title);
    QList<QPointF> all, primary, secondary;
    for (const auto& c : curves) {
        for (const auto& p : c.points) {
            if (log && (p.x() <= 0 || p.y() <= 0)) {
                continue;
            }
            all.append(p);
            (c.secondary ? secondary : primary).append(p);
        }
    }
    if (all.isEmpty()) {
        return;
    }
    QAbstractAxis* ax = makeAxis(log, 2, x_title, all, true);
    QAbstractAxis* ay = makeAxis(log, 2, y_title, primary.isEmpty() ? all : primary, false);
    chart->addAxis(ax, Qt::AlignBottom);
    chart->addAxis(ay, Qt::AlignLeft);
    QAbstractAxis* ay2 = nullptr;
    if (!secondary.isEmpty()) {
        ay2 = makeAxis(log, 2, y2_title, secondary, false);
        chart->addAxis(ay2, Qt::AlignRight);
    }
    for (const auto& c : curves) {
        QXYSeries* series = nullptr;
        if (c.markers) {
            auto* s = new QScatterSeries;
            s->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
            s->setMarkerSize(11);
            s->setColor(QColor(0xd6, 0x27, 0x28));
            s->setBorderColor(Qt::black);
            series = s;
        } else {
            auto* s = new QLineSeries;
            QPen pen(c.color);
            pen.setWidthF(2);
            pen.setStyle(c.style);
            s->setPen(pen);
            s->setPointsVisible(true);
            series = s;
        }
        series->setName(c.name);
        for (const auto& p : c.points) {
            if (!log || (p.x() > 0 && p.y() > 0)) {
                series->append(p);
            }
        }
        chart->addSeries(series);
        series->attachAxis(ax);
        series->attachAxis(c.secondary && ay2 ? ay2 : ay);
    }
}

// Series labels ("workshop-default, batch 8, fp32, eager, training") split into what all series
// of a chart share (shown in its title) and what tells each one apart (shown in the legend).
struct Labels {
    QString common;
    QStringList distinct;
};

Labels splitLabels(const std::vector<ScalingSeries>& series) {
    Labels out;
    QList<QStringList> parts;
    for (const auto& s : series) {
        parts.append(QString::fromStdString(s.label).split(QStringLiteral(", ")));
    }
    QStringList common;
    if (!parts.isEmpty()) {
        for (const auto& token : parts.front()) {
            if (std::all_of(parts.begin(), parts.end(),
                            [&token](const QStringList& p) { return p.contains(token); })) {
                common.append(token);
            }
        }
    }
    out.common = common.join(QStringLiteral(", "));
    for (const auto& p : parts) {
        QStringList own;
        for (const auto& token : p) {
            if (!common.contains(token)) {
                own.append(token);
            }
        }
        out.distinct.append(own.join(QStringLiteral(", ")));
    }
    return out;
}

QString withSetting(const QString& what, const QString& setting) {
    return setting.isEmpty() ? what : what + QStringLiteral(": ") + setting;
}

QString withCommon(const QString& title, const QString& common) {
    return common.isEmpty() ? title : title + QStringLiteral(" (") + common + QStringLiteral(")");
}

}  // namespace

SweepPage::SweepPage(QWidget* parent) : QWidget(parent) {
    // ---- the form
    m_preset = new QComboBox(this);
    for (const auto& name : Preset::names()) {
        m_preset->addItem(QString::fromStdString(name));
    }
    m_preset->setCurrentText(QStringLiteral("workshop-default"));
    m_batchSizes = new QLineEdit(QStringLiteral("4,8,16"), this);
    m_seqLens = new QLineEdit(QStringLiteral("64,128,256,512"), this);
    m_presets = new QLineEdit(this);
    m_dtypes = new QLineEdit(QStringLiteral("fp32"), this);
    m_attention = new QLineEdit(QStringLiteral("eager,memory-efficient"), this);
    m_checkpointing = new QLineEdit(QStringLiteral("off"), this);
    m_profiles = new QLineEdit(QStringLiteral("training"), this);
    m_steps = new QSpinBox(this);
    m_steps->setRange(1, 100000);
    m_steps->setValue(3);
    m_mode = new QComboBox(this);
    m_mode->addItem(QString(), QStringLiteral("axes"));
    m_mode->addItem(QString(), QStringLiteral("grid"));
    m_capacity = new QLineEdit(this);
    m_outDir = new QLineEdit(this);
    m_outDir->setText(QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
                          .filePath(QStringLiteral("sweeps")));
    m_browse = new QPushButton(this);
    m_run = new QPushButton(this);
    m_cancelButton = new QPushButton(this);
    m_cancelButton->setEnabled(false);
    m_open = new QPushButton(this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout;
    const auto row = [this, form](QWidget* field) {
        auto* label = new QLabel(this);
        label->setBuddy(field);
        m_formLabels.append(label);
        form->addRow(label, field);
    };
    row(m_preset);
    row(m_batchSizes);
    row(m_seqLens);
    row(m_presets);
    row(m_dtypes);
    row(m_attention);
    row(m_checkpointing);
    row(m_profiles);
    row(m_steps);
    row(m_mode);
    row(m_capacity);
    auto* dirRow = new QWidget(this);
    auto* dirLayout = new QHBoxLayout(dirRow);
    dirLayout->setContentsMargins(0, 0, 0, 0);
    dirLayout->addWidget(m_outDir, 1);
    dirLayout->addWidget(m_browse);
    row(dirRow);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancelButton);
    buttons->addStretch(1);
    buttons->addWidget(m_open);

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->addLayout(form);
    leftLayout->addLayout(buttons);
    leftLayout->addWidget(m_progress);
    leftLayout->addWidget(m_status);
    leftLayout->addStretch(1);

    // ---- charts
    auto* chartsTab = new QWidget(this);
    auto* grid = new QGridLayout;
    for (int i = 0; i < 4; ++i) {
        m_charts[i] = new QChart;
        m_charts[i]->legend()->setAlignment(Qt::AlignBottom);
        m_charts[i]->setMargins(QMargins(4, 4, 4, 4));
        m_chartViews[i] = new QChartView(m_charts[i], chartsTab);
        m_chartViews[i]->setRenderHint(QPainter::Antialiasing);
        m_chartViews[i]->setMinimumSize(320, 240);
        grid->addWidget(m_chartViews[i], i / 2, i % 2);
    }
    m_logAxes = new QCheckBox(chartsTab);
    m_xAxis = new QComboBox(chartsTab);
    m_xAxis->addItem(QString(), int(ScalingSeries::Axis::Seq));
    m_xAxis->addItem(QString(), int(ScalingSeries::Axis::Batch));
    m_xAxisLabel = new QLabel(chartsTab);
    m_xAxisLabel->setBuddy(m_xAxis);
    m_verdict = new QLabel(chartsTab);
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* chartControls = new QHBoxLayout;
    chartControls->addWidget(m_logAxes);
    chartControls->addSpacing(16);
    chartControls->addWidget(m_xAxisLabel);
    chartControls->addWidget(m_xAxis);
    chartControls->addStretch(1);
    auto* chartsLayout = new QVBoxLayout(chartsTab);
    chartsLayout->addLayout(chartControls);
    chartsLayout->addLayout(grid, 1);
    chartsLayout->addWidget(m_verdict);

    // ---- tables
    auto* tablesTab = new QWidget(this);
    m_tableCombo = new QComboBox(tablesTab);
    for (const auto kind :
         {SeedTables::Kind::Points, SeedTables::Kind::Seed000Step1, SeedTables::Kind::Seed000Step3,
          SeedTables::Kind::Seed002Sizes, SeedTables::Kind::Seed003b, SeedTables::Kind::Seed003c}) {
        m_tableCombo->addItem(QString(), int(kind));
    }
    m_tableModel = new SweepTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_tableModel);
    m_proxy->setSortRole(Qt::UserRole);
    m_table = new QTableView(tablesTab);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_exportButton = new QPushButton(tablesTab);
    auto* tableControls = new QHBoxLayout;
    tableControls->addWidget(m_tableCombo, 1);
    tableControls->addWidget(m_exportButton);
    auto* tablesLayout = new QVBoxLayout(tablesTab);
    tablesLayout->addLayout(tableControls);
    tablesLayout->addWidget(m_table, 1);

    m_tabs = new QTabWidget(this);
    m_tabs->addTab(chartsTab, QString());
    m_tabs->addTab(tablesTab, QString());

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    left->setMinimumWidth(340);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_run, &QPushButton::clicked, this, [this] {
        SweepSpec spec;
        if (const Outcome read = specFromForm(spec); !read) {
            m_status->setText(read.message());
            return;
        }
        const QString dir = QDir(m_outDir->text())
                                .filePath(QDateTime::currentDateTime().toString(
                                    QStringLiteral("'sweep-'yyyyMMdd-HHmmss")));
        if (const Outcome started = startSweep(spec, dir); !started) {
            m_status->setText(started.message());
        }
    });
    connect(m_cancelButton, &QPushButton::clicked, this, &SweepPage::cancelSweep);
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("Open sweep directory"), m_outDir->text());
        if (dir.isEmpty()) {
            return;
        }
        if (const Outcome opened = openSweep(dir); !opened) {
            m_status->setText(opened.message());
        }
    });
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Directory for sweep results"), m_outDir->text());
        if (!dir.isEmpty()) {
            m_outDir->setText(dir);
        }
    });
    connect(m_logAxes, &QCheckBox::toggled, this, [this] { rebuildCharts(); });
    connect(m_xAxis, &QComboBox::currentIndexChanged, this, [this] { rebuildCharts(); });
    connect(m_tableCombo, &QComboBox::currentIndexChanged, this, [this] { rebuildTable(); });
    connect(m_exportButton, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export table"), m_dir, tr("CSV files (*.csv)"));
        if (path.isEmpty()) {
            return;
        }
        if (const Outcome written = exportCsv(path); !written) {
            m_status->setText(written.message());
        }
    });
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (m_tableCombo->currentData().toInt() != int(SeedTables::Kind::Points)) {
            return;
        }
        const int row = m_proxy->mapToSource(index).row();
        if (row >= 0 && size_t(row) < m_result.points.size() &&
            !m_result.points[size_t(row)].run_file.empty()) {
            emit runFileActivated(QDir(m_dir).filePath(
                QString::fromStdString(m_result.points[size_t(row)].run_file)));
        }
    });
    retranslateUi();
    rebuildCharts();
    rebuildTable();
}

SweepPage::~SweepPage() {
    if (m_running && m_cancel) {
        m_cancel->request();
        m_future.waitForFinished();
    }
}

Outcome SweepPage::specFromForm(SweepSpec& spec) const {
    try {
        spec = SweepSpec();
        spec.base = TrainOptions::fromPreset(m_preset->currentText().toStdString());
        const auto list = [](const QLineEdit* edit) {
            return edit->text().trimmed().toStdString();
        };
        if (!list(m_batchSizes).empty())
            spec.batch_sizes = SweepSpec::parseSizes(tr("Batch sizes").toStdString(),
                                                     list(m_batchSizes), "batch_size");
        if (!list(m_seqLens).empty())
            spec.seq_lens = SweepSpec::parseSizes(tr("Sequence lengths").toStdString(),
                                                  list(m_seqLens), "seq_len");
        if (!list(m_presets).empty())
            spec.presets = SweepSpec::parsePresets(tr("Presets").toStdString(), list(m_presets));
        if (!list(m_dtypes).empty())
            spec.dtypes = SweepSpec::parseDtypes(tr("Precisions").toStdString(), list(m_dtypes));
        if (!list(m_attention).empty())
            spec.attentions =
                SweepSpec::parseAttentions(tr("Attention").toStdString(), list(m_attention));
        if (!list(m_checkpointing).empty())
            spec.checkpointing = SweepSpec::parseCheckpointing(tr("Checkpointing").toStdString(),
                                                               list(m_checkpointing));
        if (!list(m_profiles).empty())
            spec.profiles =
                SweepSpec::parseProfiles(tr("Profile types").toStdString(), list(m_profiles));
        spec.steps = m_steps->value();
        spec.mode = m_mode->currentData().toString() == QStringLiteral("grid")
                        ? SweepSpec::Mode::Grid
                        : SweepSpec::Mode::Axes;
        if (!list(m_capacity).empty()) {
            const auto bytes = parseByteSize(list(m_capacity));
            if (!bytes || *bytes <= 0) {
                return Outcome::failure(tr("Capacity: '%1' is not a size (try 512MiB or 2GiB)")
                                            .arg(m_capacity->text()));
            }
            spec.capacity_bytes = *bytes;
        }
        spec.points();  // every point valid
    } catch (const ConfigError& e) {
        return Outcome::failure(errorText(e));
    }
    return {};
}

Outcome SweepPage::startSweep(const SweepSpec& spec, const QString& dir) {
    if (m_running) {
        return Outcome::failure(tr("A sweep is already running."));
    }
    size_t total = 0;
    try {
        total = spec.points().size();
    } catch (const ConfigError& e) {
        return Outcome::failure(errorText(e));
    }
    m_running = true;
    m_dir = dir;
    m_cancel = std::make_shared<CancellationToken>();
    m_run->setEnabled(false);
    m_open->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_progress->setRange(0, int(std::max<size_t>(total, 1)) * 1000);
    m_progress->setValue(0);
    m_status->setText(tr("Starting %n point(s)...", nullptr, int(total)));
    setResult(SweepResult(), dir);

    const auto cancel = m_cancel;
    const std::string out = dir.toStdString();
    m_future = QtConcurrent::run([this, spec, out, cancel] {
        SweepResult result;
        QString error;
        try {
            // Sweeps train: the LibTorch part runs them (loaded here if it was not yet).
            TorchPart* part = TorchPartLoader::part();
            if (!part) {
                throw std::runtime_error(TorchPartLoader::outcome().message().toStdString());
            }
            auto progress = [this](const SweepRunner::Progress& p) {
                using Stage = SweepRunner::Progress::Stage;
                if (p.stage == Stage::Done) {
                    return;
                }
                const int step = p.stage == Stage::PointFinished ? int(p.steps) : int(p.step);
                QMetaObject::invokeMethod(
                    this,
                    [this, index = int(p.index), total = int(p.total),
                     label = QString::fromStdString(p.label), step,
                     steps = int(p.steps)] { onProgress(index, total, label, step, steps); },
                    Qt::QueuedConnection);
            };
            result = part->runSweep(spec, out, progress, cancel.get());
        } catch (const std::exception& e) {
            error = errorText(e);
        }
        QMetaObject::invokeMethod(
            this, [this, result, error] { finishSweep(result, Outcome::ofMessage(error)); },
            Qt::QueuedConnection);
    });
    return {};
}

void SweepPage::onProgress(int index, int total, const QString& label, int step, int steps) {
    if (!m_running) {
        return;
    }
    const int within = steps > 0 ? std::min(1000, 1000 * step / steps) : 0;
    m_progress->setValue(index * 1000 + within);
    m_status->setText(tr("Point %1 of %2: %3, step %4 of %5")
                          .arg(index + 1)
                          .arg(total)
                          .arg(label)
                          .arg(step)
                          .arg(steps));
}

void SweepPage::finishSweep(const SweepResult& result, const Outcome& outcome) {
    m_running = false;
    m_run->setEnabled(true);
    m_open->setEnabled(true);
    m_cancelButton->setEnabled(false);
    m_progress->setValue(m_progress->maximum());
    setResult(result, m_dir);
    if (!outcome) {
        m_status->setText(outcome.message());
    } else if (result.cancelled) {
        m_status->setText(
            tr("Cancelled: kept %n finished point(s) in %1", nullptr, int(result.points.size()))
                .arg(m_dir));
    } else {
        m_status->setText(
            tr("Done: %n point(s) in %1", nullptr, int(result.points.size())).arg(m_dir));
    }
    emit sweepFinished(outcome);
}

void SweepPage::cancelSweep() {
    if (m_running && m_cancel) {
        m_cancel->request();
        m_status->setText(tr("Cancelling: the running point stops at its next module..."));
    }
}

Outcome SweepPage::openSweep(const QString& dir) {
    if (m_running) {
        return Outcome::failure(tr("A sweep is already running."));
    }
    try {
        setResult(SweepResult::load(dir.toStdString()), dir);
    } catch (const std::exception& e) {
        return Outcome::failure(errorText(e));
    }
    m_status->setText(
        tr("Opened %n point(s) from %1", nullptr, int(m_result.points.size())).arg(dir));
    return {};
}

void SweepPage::setResult(SweepResult result, const QString& dir) {
    m_result = std::move(result);
    m_dir = dir;
    // Charts 3 and 4 follow the axis the sweep varies (sequence length when both are).
    const bool has_seq = !ScalingSeries::build(m_result, ScalingSeries::Axis::Seq).empty();
    const bool has_batch = !ScalingSeries::build(m_result, ScalingSeries::Axis::Batch).empty();
    if (has_batch && !has_seq) {
        m_xAxis->setCurrentIndex(1);
    } else if (has_seq && !has_batch) {
        m_xAxis->setCurrentIndex(0);
    }
    rebuildCharts();
    rebuildTable();
}

void SweepPage::setLogAxes(bool on) {
    m_logAxes->setChecked(on);
}

bool SweepPage::logAxes() const {
    return m_logAxes->isChecked();
}

void SweepPage::rebuildCharts() {
    const bool log = m_logAxes->isChecked();
    const QString memoryTitle = tr("Memory (MiB)");
    const auto seriesOf = [this](ScalingSeries::Axis axis) {
        return ScalingSeries::build(m_result, axis);
    };
    const auto oomPoints = [this](const ScalingSeries& s) {
        QList<QPointF> pts;
        for (size_t k = 0; k < s.points.size(); ++k) {
            const auto& p = m_result.points[s.points[k]];
            if (p.status == SweepPointResult::Status::OutOfMemory) {
                const int64_t at = p.capacity_bytes > 0 ? p.capacity_bytes : p.peak_bytes;
                pts.append(QPointF(s.x[k], double(at) / kMiB));
            }
        }
        return pts;
    };
    // Charts 1 and 2: peak and average memory.
    for (int c = 0; c < 2; ++c) {
        const auto axis = c == 0 ? ScalingSeries::Axis::Batch : ScalingSeries::Axis::Seq;
        std::vector<Curve> curves;
        QList<QPointF> ooms;
        const auto all = seriesOf(axis);
        const Labels labels = splitLabels(all);
        for (size_t i = 0; i < all.size(); ++i) {
            const auto& s = all[i];
            Curve peak, avg;
            peak.name = withSetting(tr("Peak"), labels.distinct[int(i)]);
            avg.name = withSetting(tr("Average"), labels.distinct[int(i)]);
            peak.color = avg.color = paletteColor(i);
            avg.style = Qt::DashLine;
            for (size_t k = 0; k < s.points.size(); ++k) {
                const auto& p = m_result.points[s.points[k]];
                if (p.ok()) {
                    peak.points.append(QPointF(s.x[k], double(p.peak_bytes) / kMiB));
                    avg.points.append(QPointF(s.x[k], double(p.avg_bytes) / kMiB));
                }
            }
            curves.push_back(peak);
            curves.push_back(avg);
            ooms.append(oomPoints(s));
        }
        if (!ooms.isEmpty()) {
            Curve m;
            m.name = tr("Out of memory");
            m.points = ooms;
            m.markers = true;
            curves.push_back(m);
        }
        fillChart(m_charts[c],
                  withCommon(c == 0 ? tr("Memory against batch size")
                                    : tr("Memory against sequence length"),
                             labels.common),
                  curves, c == 0 ? tr("Batch size") : tr("Sequence length"), memoryTitle, QString(),
                  log);
    }
    // Charts 3 and 4 along the chosen axis.
    const auto axis = static_cast<ScalingSeries::Axis>(m_xAxis->currentData().toInt());
    const QString xTitle =
        axis == ScalingSeries::Axis::Batch ? tr("Batch size") : tr("Sequence length");
    std::vector<Curve> speed, perToken;
    const auto all = seriesOf(axis);
    const Labels labels = splitLabels(all);
    for (size_t i = 0; i < all.size(); ++i) {
        const auto& s = all[i];
        const QString label = labels.distinct[int(i)];
        Curve samples, tokens, peakPer, inputPer;
        samples.name = withSetting(tr("Samples/s"), label);
        tokens.name = withSetting(tr("Tokens/s"), label);
        tokens.secondary = true;
        tokens.style = Qt::DashLine;
        peakPer.name = withSetting(tr("Peak per token"), label);
        inputPer.name = withSetting(tr("Input-dependent per token"), label);
        inputPer.style = Qt::DashLine;
        samples.color = tokens.color = peakPer.color = inputPer.color = paletteColor(i);
        for (size_t k = 0; k < s.points.size(); ++k) {
            const auto& p = m_result.points[s.points[k]];
            if (!p.ok()) {
                continue;
            }
            samples.points.append(QPointF(s.x[k], p.samples_per_s));
            tokens.points.append(QPointF(s.x[k], p.tokens_per_s));
            peakPer.points.append(QPointF(s.x[k], p.bytesPerToken() / 1024.0));
            inputPer.points.append(QPointF(s.x[k], p.inputBytesPerToken() / 1024.0));
        }
        speed.push_back(samples);
        speed.push_back(tokens);
        perToken.push_back(peakPer);
        perToken.push_back(inputPer);
    }
    fillChart(m_charts[2], withCommon(tr("Throughput"), labels.common), speed, xTitle,
              tr("Samples per second"), tr("Tokens per second"), log);
    fillChart(m_charts[3], withCommon(tr("Memory per token"), labels.common), perToken, xTitle,
              tr("KiB per token"), QString(), log);
    updateVerdict();
}

void SweepPage::updateVerdict() {
    QStringList lines;
    for (const auto axis : {ScalingSeries::Axis::Seq, ScalingSeries::Axis::Batch}) {
        const QString sym =
            axis == ScalingSeries::Axis::Seq ? QStringLiteral("S") : QStringLiteral("B");
        const QString against = axis == ScalingSeries::Axis::Seq ? tr("against sequence length")
                                                                 : tr("against batch size");
        for (const auto& s : ScalingSeries::build(m_result, axis)) {
            const auto term = [&sym](const ScalingFit& f) {
                return f.valid ? QStringLiteral("%1<sup>%2</sup> (%3)")
                                     .arg(sym)
                                     .arg(f.exponent, 0, 'f', 2)
                                     .arg(verdictWord(f.verdictKind()))
                               : verdictWord(f.verdictKind());
            };
            QString line = tr("<b>%1</b>, %2: peak ∝ %3; input-dependent memory ∝ %4")
                               .arg(against, QString::fromStdString(s.label).toHtmlEscaped(),
                                    term(s.peak), term(s.input_dependent));
            if (!s.steepest_category.empty()) {
                line += tr("; steepest component: %1 ∝ %2")
                            .arg(QString::fromStdString(s.steepest_category), term(s.steepest));
            }
            lines.append(line);
        }
    }
    if (lines.isEmpty()) {
        m_verdict->setText(m_result.points.empty()
                               ? tr("Run or open a sweep to see how memory scales.")
                               : tr("The sweep has no two points that differ only in batch size "
                                    "or sequence length: no exponent to fit."));
        return;
    }
    int ooms = 0;
    for (const auto& p : m_result.points) {
        ooms += p.status == SweepPointResult::Status::OutOfMemory;
    }
    if (ooms > 0) {
        lines.append(
            tr("%n point(s) ran out of memory (marked in the charts, left out of the "
               "fits).",
               nullptr, ooms));
    }
    m_verdict->setText(lines.join(QStringLiteral("<br>")));
}

QString SweepPage::verdictWord(ScalingFit::Verdict verdict) {
    switch (verdict) {
        case ScalingFit::Verdict::Linear:
            return tr("linear");
        case ScalingFit::Verdict::Quadratic:
            return tr("quadratic");
        case ScalingFit::Verdict::SubLinear:
            return tr("sub-linear");
        case ScalingFit::Verdict::InBetween:
            return tr("between linear and quadratic");
        case ScalingFit::Verdict::SteeperThanQuadratic:
            return tr("steeper than quadratic");
        case ScalingFit::Verdict::NotEnoughPoints:
            break;
    }
    return tr("not enough points");
}

QString SweepPage::verdictText() const {
    QString html = m_verdict->text();
    html.replace(QStringLiteral("<br>"), QStringLiteral("\n"));
    html.replace(QStringLiteral("<sup>"), QStringLiteral("^"));
    QString plain;
    bool inTag = false;
    for (const QChar ch : html) {
        if (ch == '<') {
            inTag = true;
        } else if (ch == '>') {
            inTag = false;
        } else if (!inTag) {
            plain += ch;
        }
    }
    return plain;
}

void SweepPage::rebuildTable() {
    const auto kind = static_cast<SeedTables::Kind>(m_tableCombo->currentData().toInt());
    m_tableModel->setTable(SeedTables::make(kind, m_result, TableExporter::Units::Readable));
    m_table->resizeColumnsToContents();
}

Outcome SweepPage::exportCsv(const QString& path) {
    const auto kind = static_cast<SeedTables::Kind>(m_tableCombo->currentData().toInt());
    const std::string text =
        TableExporter::toCsv(SeedTables::make(kind, m_result, TableExporter::Units::Raw));
    try {
        writeFileAtomically(path.toStdString(), [&text](std::ostream& out) { out << text; });
    } catch (const std::exception& e) {
        return Outcome::failure(errorText(e));
    }
    return {};
}

QString SweepPage::tableTitle(int kind) const {
    switch (static_cast<SeedTables::Kind>(kind)) {
        case SeedTables::Kind::Points:
            return tr("Sweep points");
        case SeedTables::Kind::Seed000Step1:
            return tr("Workshop exercise 2, step 1: memory by batch size");
        case SeedTables::Kind::Seed000Step3:
            return tr("Workshop exercise 2, step 3: sequence length scaling");
        case SeedTables::Kind::Seed002Sizes:
            return tr("Performance study: problem sizes");
        case SeedTables::Kind::Seed003b:
            return tr("CS336 (b): peak per context length, forward and training step");
        case SeedTables::Kind::Seed003c:
            return tr("CS336 (c): mixed precision");
    }
    return QString();
}

void SweepPage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        rebuildCharts();
    }
    QWidget::changeEvent(event);
}

void SweepPage::retranslateUi() {
    const QString labels[] = {tr("Base preset:"),   tr("Batch sizes:"),   tr("Sequence lengths:"),
                              tr("Presets:"),       tr("Precisions:"),    tr("Attention:"),
                              tr("Checkpointing:"), tr("Profile types:"), tr("Steps per point:"),
                              tr("Mode:"),          tr("Capacity:"),      tr("Output directory:")};
    for (int i = 0; i < m_formLabels.size() && i < int(std::size(labels)); ++i) {
        m_formLabels[i]->setText(labels[i]);
    }
    m_batchSizes->setToolTip(tr("Comma-separated, e.g. 4,8,16 (empty: the preset's)"));
    m_seqLens->setToolTip(tr("Comma-separated, e.g. 64,128,256,512 (empty: the preset's)"));
    m_presets->setToolTip(
        tr("Comma-separated presets, each with its own model, batch and "
           "sequence length (empty: the base preset)"));
    m_dtypes->setToolTip(tr("fp32, bf16 (fp16 needs a GPU)"));
    m_attention->setToolTip(tr("eager, fused, sdpa, memory-efficient"));
    m_checkpointing->setToolTip(tr("off, on"));
    m_profiles->setToolTip(tr("training, forward"));
    m_capacity->setPlaceholderText(tr("none"));
    m_capacity->setToolTip(
        tr("Emulated device capacity (e.g. 1GiB): points that need more run "
           "out of memory and are marked"));
    m_mode->setItemText(0, tr("One dimension at a time"));
    m_mode->setItemText(1, tr("Every combination"));
    m_mode->setToolTip(
        tr("One dimension at a time: batch sizes at the preset's sequence length "
           "and sequence lengths at its batch size"));
    m_browse->setText(tr("Browse..."));
    m_run->setText(tr("Run sweep"));
    m_cancelButton->setText(tr("Cancel"));
    m_open->setText(tr("Open sweep..."));
    m_tabs->setTabText(0, tr("Charts"));
    m_tabs->setTabText(1, tr("Tables"));
    m_logAxes->setText(tr("Log-log axes"));
    m_xAxisLabel->setText(tr("Throughput and per-token charts against:"));
    m_xAxis->setItemText(0, tr("Sequence length"));
    m_xAxis->setItemText(1, tr("Batch size"));
    for (int i = 0; i < m_tableCombo->count(); ++i) {
        m_tableCombo->setItemText(i, tableTitle(m_tableCombo->itemData(i).toInt()));
    }
    m_exportButton->setText(tr("Export CSV..."));
    if (m_status->text().isEmpty() && !m_running) {
        m_status->setText(tr("Define a sweep and run it, or open a finished one."));
    }
}

}  // namespace memscope
