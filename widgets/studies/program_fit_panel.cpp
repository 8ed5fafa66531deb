#include "studies/program_fit_panel.h"

#include "common/byte_format.h"
#include "error_text.h"

#include "model/input_error.h"
#include "predict/device_spec.h"
#include "predict/program_memory_fit.h"
#include "studies/program_sweep.h"

#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace memscope {

struct ProgramFitPanel::Loaded {
    std::shared_ptr<const ProgramMemoryFit> fit;
    ProgramSweepSpec spec;
    QString error;
    QString program;
    size_t failed = 0;
};

namespace {

// The phases in the table's row order.
const char* const kPhaseRows[] = {"forward", "backward", "optimizer"};

}  // namespace

ProgramFitPanel::ProgramFitPanel(QWidget* parent) : QGroupBox(parent) {
    m_open = new QPushButton;
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_sizesLabel = new QLabel;
    m_sizes = new QLineEdit;
    m_sizes->setPlaceholderText(QStringLiteral("d=2560,L=32,s=512,b=4,h=32"));
    m_sizes->setEnabled(false);
    m_table = new QTableWidget(3, 2);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->setMinimumHeight(110);
    m_result = new QLabel;
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* top = new QHBoxLayout;
    top->addWidget(m_open);
    top->addWidget(m_status, 1);
    auto* sizes = new QHBoxLayout;
    sizes->addWidget(m_sizesLabel);
    sizes->addWidget(m_sizes, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(sizes);
    layout->addWidget(m_table);
    layout->addWidget(m_result);

    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Open the directory of a sweep of your program"), m_dir);
        if (!dir.isEmpty()) {
            loadSweep(dir);
        }
    });
    connect(m_sizes, &QLineEdit::textChanged, this, &ProgramFitPanel::updatePrediction);
    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<Loaded>>::finished, this,
            &ProgramFitPanel::finishLoading);
    retranslate();
}

ProgramFitPanel::~ProgramFitPanel() {
    m_watcher.waitForFinished();
}

void ProgramFitPanel::loadSweep(const QString& dir) {
    m_watcher.waitForFinished();
    m_dir = dir;
    m_status->setText(tr("Fitting %1 ...").arg(dir));
    m_open->setEnabled(false);
    const std::string path = dir.toStdString();
    m_watcher.setFuture(QtConcurrent::run([path] {
        auto out = std::make_shared<Loaded>();
        try {
            const ProgramSweep sweep = ProgramSweep::load(path);
            out->spec = sweep.spec;
            out->program = sweep.spec.program.empty()
                               ? QString()
                               : QString::fromStdString(sweep.spec.program.front());
            for (const auto& p : sweep.points) {
                out->failed += p.ok ? 0 : 1;
            }
            out->fit =
                std::make_shared<const ProgramMemoryFit>(ProgramMemoryFit::fit(sweep.samples()));
        } catch (const std::exception& e) {
            out->error = errorText(e);
        }
        return out;
    }));
}

void ProgramFitPanel::finishLoading() {
    m_open->setEnabled(true);
    const auto result = m_watcher.result();
    if (!result || !result->fit) {
        m_fit.reset();
        m_error = result ? result->error : QString();
        m_summary.clear();
        m_status->setText(tr("Cannot use %1: %2").arg(m_dir, m_error));
        m_sizes->setEnabled(false);
        updatePrediction();
        emit failed(m_error);
        return;
    }
    m_fit = result->fit;
    m_multiples.clear();
    for (const auto& axis : result->spec.axes) {
        if (axis.factor > 0) {
            m_multiples[axis.name] = {axis.factor, axis.of};
        }
    }
    double worst = 0, worst_held = 0;
    for (const auto& r : m_fit->residuals()) {
        (r.held_out ? worst_held : worst) =
            std::max(r.held_out ? worst_held : worst, std::fabs(r.relative()));
    }
    m_summary = tr("%1: %2 points (%3 failed), %4 left out to check the fit; largest residual "
                   "%5% on the points fitted, %6% on those left out")
                    .arg(result->program)
                    .arg(m_fit->points())
                    .arg(result->failed)
                    .arg(m_fit->heldOutPoints())
                    .arg(100.0 * worst, 0, 'f', 3)
                    .arg(100.0 * worst_held, 0, 'f', 3);
    m_status->setText(m_summary);
    m_sizes->setEnabled(true);
    updatePrediction();
    emit loaded();
}

void ProgramFitPanel::setDevice(const DeviceSpec* device) {
    m_device = device != nullptr ? std::make_unique<DeviceSpec>(*device) : nullptr;
    updatePrediction();
}

void ProgramFitPanel::updatePrediction() {
    for (int row = 0; row < m_table->rowCount(); ++row) {
        for (int column = 0; column < m_table->columnCount(); ++column) {
            m_table->setItem(row, column, new QTableWidgetItem(QStringLiteral("-")));
        }
    }
    if (!m_fit) {
        m_result->clear();
        return;
    }
    const QString text = m_sizes->text().trimmed();
    if (text.isEmpty()) {
        m_result->setText(tr("Type the sizes to predict, e.g. d=2560,L=32,s=512,b=4"));
        return;
    }
    std::vector<ProgramMemoryFit::PhasePrediction> predictions;
    std::map<std::string, int64_t> at;
    try {
        at = ProgramMemoryFit::parseSizes(text.toStdString());
        for (const auto& [name, rule] : m_multiples) {
            const auto of = at.find(rule.second);
            if (at.count(name) == 0 && of != at.end()) {
                at[name] = rule.first * of->second;
            }
        }
        at = m_fit->completed(at);
        predictions = m_fit->predict(at);
    } catch (const std::exception& e) {
        m_result->setText(tr("Outside what the fit can say: %1").arg(errorText(e)));
        return;
    }
    const ProgramMemoryFit::PhasePrediction* peak = nullptr;
    for (const auto& p : predictions) {
        const size_t slash = p.phase.find('/');
        const std::string step = p.phase.substr(0, slash);
        const std::string phase = p.phase.substr(slash + 1);
        for (int row = 0; row < 3; ++row) {
            if (phase == kPhaseRows[row]) {
                m_table->setItem(row, step == "first" ? 0 : 1,
                                 new QTableWidgetItem(bytesText(p.bytes)));
            }
        }
        if (peak == nullptr || p.bytes > peak->bytes) {
            peak = &p;
        }
    }
    QStringList parts;
    parts << tr("Peak %1 (%2, at %3).")
                 .arg(bytesText(peak->bytes), QString::fromStdString(peak->phase),
                      QString::fromStdString(peak->region));
    QStringList categories;
    for (int c = 0; c < kCategoryCount; ++c) {
        const int64_t b = peak->by_category[size_t(c)];
        if (std::llabs(b) >= 1024) {
            categories << QStringLiteral("%1 %2").arg(
                QString::fromStdString(toString(static_cast<Category>(c))), bytesText(b));
        }
    }
    parts << tr("At the peak: %1.").arg(categories.join(QStringLiteral(", ")));
    if (m_device) {
        const int64_t held = m_device->heldFor(peak->bytes);
        const DeviceSpec device = *m_device;
        const bool fits = held <= device.usableBytes();
        parts << (fits ? tr("On %1: about %2 held of %3 usable: fits.")
                       : tr("On %1: about %2 held of %3 usable: does not fit."))
                     .arg(QString::fromStdString(device.name), bytesText(held),
                          bytesText(device.usableBytes()));
        const int64_t batch = m_fit->largestBatch(
            at, [device](int64_t bytes) { return device.heldFor(bytes) <= device.usableBytes(); });
        if (batch > 0) {
            parts << tr("Largest batch that fits: %1.").arg(batch);
        } else if (batch == 0) {
            parts << tr("Not even batch 1 fits.");
        }
    }
    m_result->setText(parts.join(QLatin1Char(' ')));
}

void ProgramFitPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QGroupBox::changeEvent(event);
}

void ProgramFitPanel::retranslate() {
    setTitle(tr("Your program, fitted from a sweep (memscope-cli sweep --python)"));
    m_open->setText(tr("Open sweep..."));
    m_sizesLabel->setText(tr("Sizes:"));
    if (!m_fit && m_error.isEmpty()) {
        m_status->setText(tr("No sweep open"));
    }
    m_table->setHorizontalHeaderLabels({tr("Step 1"), tr("Steady")});
    m_table->setVerticalHeaderLabels(
        {tr("Forward (autograd on)"), tr("Backward"), tr("Optimizer")});
    updatePrediction();
}

}  // namespace memscope
