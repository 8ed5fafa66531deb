#include "pages/oom_panel.h"

#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "error_text.h"
#include "pages/summary_result.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>

namespace memscope {

namespace {

const char* const kOomKeys[] = {"oom_request",    "oom_stack",   "oom_device", "oom_verdict",
                                "oom_categories", "oom_modules", "oom_advice"};

}  // namespace

OomPanel::OomPanel(QWidget* parent) : QGroupBox(parent) {
    setObjectName(QStringLiteral("oom_box"));
    setLayout(new QFormLayout);
    for (const char* key : kOomKeys) {
        m_figures.add(this, QLatin1String(key))->setWordWrap(true);
    }
    m_sweep_button = new QPushButton(this);
    m_sweep_button->setObjectName(QStringLiteral("oom_sweep_button"));
    static_cast<QFormLayout*>(layout())->addRow(QString(), m_sweep_button);
    connect(m_sweep_button, &QPushButton::clicked, this, &OomPanel::chooseSweep);
    setVisible(false);
}

void OomPanel::clearSweep() {
    m_sweep_advice.reset();
    m_sweep_error.clear();
}

void OomPanel::showResult(std::shared_ptr<const SummaryResult> result) {
    m_result = std::move(result);
    const SummaryResult* r = m_result.get();
    const bool shown = r && r->error.isEmpty() && r->oom;
    setVisible(shown);
    if (!shown) {
        return;
    }
    const OomExplanation& x = *r->oom;
    const OomExplanation::Request& q = x.request();
    const QLocale locale;
    // The rounded figure and the exact one: "3.9 MiB (4,063,232 bytes)".
    auto exact = [&](int64_t b) {
        return tr("%1 (%2 bytes)").arg(bytesText(b), locale.toString(qint64(b)));
    };
    const QString phase = TimelineLabels::phaseName(int(q.phase));
    m_figures.set(
        QStringLiteral("oom_request"),
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
    m_figures.set(
        QStringLiteral("oom_stack"), where,
        q.stack.empty() ? QString() : tr("Stack: %1").arg(QString::fromStdString(q.stack)));
    QString device = x.capacityKnown() ? tr("capacity %1").arg(bytesText(x.capacity()))
                                       : tr("capacity not recorded");
    device += tr(", allocated %1").arg(bytesText(x.allocated()));
    if (x.hasSegments()) {
        device += tr(", reserved %1 (%2 free inside its segments, %3 not reserved)")
                      .arg(bytesText(x.reserved()), bytesText(x.freeInSegments()),
                           bytesText(x.unreserved()));
    }
    device += tr(": %1 free").arg(exact(x.freeBytes()));
    m_figures.set(QStringLiteral("oom_device"), device);
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
    if (QLabel* label = m_figures.value(QStringLiteral("oom_verdict"))) {
        label->setTextFormat(Qt::RichText);
    }
    m_figures.set(QStringLiteral("oom_verdict"), verdict);
    QStringList categories;
    for (const auto& [name, b] : x.categories()) {
        const auto category = parseCategory(name);
        categories << tr("%1 %2").arg(
            category ? TimelineLabels::categoryName(int(*category)) : QString::fromStdString(name),
            bytesText(b));
    }
    m_figures.set(QStringLiteral("oom_categories"), categories.isEmpty()
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
                            bytesText(m.held));
    }
    m_figures.set(
        QStringLiteral("oom_modules"),
        modules.isEmpty() ? tr("no module held memory") : modules.join(QLatin1Char('\n')),
        tr("The Modules view at the out-of-memory event: %1 alive").arg(exact(x.aliveBytes())));
    showAdvice();
}

void OomPanel::showAdvice() {
    const SummaryResult* r = m_result.get();
    if (!r || !r->oom) {
        return;
    }
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
                              bytesText(s.predicted_peak), bytesText(s.headroom));
        }
        if (lines.isEmpty()) {
            lines << tr("No single change the planner models fits %1.")
                         .arg(bytesText(r->oom->capacity()));
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
                     .arg(m_sweep_dir, bytesText(a.predicted_peak),
                          sizes.join(QStringLiteral(", ")));
        int n = 0;
        for (const auto& s : a.suggestions) {
            lines << tr("%1. %2=%3 (was %4): predicted peak %5, headroom %6")
                         .arg(++n)
                         .arg(QString::fromStdString(s.size))
                         .arg(s.to)
                         .arg(s.from)
                         .arg(bytesText(s.predicted_peak), bytesText(s.headroom));
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
    m_figures.set(QStringLiteral("oom_advice"), lines.join(QLatin1Char('\n')), tip);
}

bool OomPanel::adviseFromSweep(const QString& dir) {
    const SummaryResult* r = m_result.get();
    m_sweep_advice.reset();
    m_sweep_error.clear();
    m_sweep_dir = dir;
    if (!r || !r->oom || r->program_command.empty()) {
        m_sweep_error = tr("This run is not a Python program's that ran out of memory.");
        showAdvice();
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
    showAdvice();
    return m_sweep_advice.has_value();
}

void OomPanel::chooseSweep() {
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("A sweep of this program (memscope-cli sweep --python)"), m_sweep_dir);
    if (!dir.isEmpty()) {
        adviseFromSweep(dir);
    }
}

void OomPanel::retranslateUi() {
    setTitle(tr("Out of memory"));
    m_sweep_button->setText(tr("Advice from a sweep of this program..."));
    const std::pair<const char*, QString> names[] = {
        {"oom_request", tr("Request:")},      {"oom_stack", tr("Where:")},
        {"oom_device", tr("Device:")},        {"oom_verdict", tr("Why:")},
        {"oom_categories", tr("Filled by:")}, {"oom_modules", tr("Modules:")},
        {"oom_advice", tr("What fits:")},
    };
    m_figures.setNames(names);
}

}  // namespace memscope
