#include "shell/run_panel.h"

#include "common/app_settings.h"
#include "common/train_option_fields.h"
#include "error_text.h"
#include "runs/torch_part_loader.h"

#include "device/device_discovery.h"
#include "model/config_error.h"
#include "model/preset.h"
#include "model/train_option_table.h"
#include "run/byte_size.h"
#include "run/parallel_rules.h"
#include "run/run_summary.h"
#include "torchpart/torch_part.h"
#include "trace/recorded_options.h"
#include "train/thread_policy.h"

#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>

namespace memscope {
namespace {

constexpr auto k_options_key = "run_panel/options";
constexpr auto k_shapes_key = "run_panel/record_shapes";
constexpr auto k_parallel_key = "run_panel/parallel";
constexpr auto k_bucket_key = "run_panel/bucket_mib";
constexpr auto k_source_key = "run_panel/source";
constexpr auto k_python_key = "run_panel/python_program";

// A field for a whole number in [lo, hi].
QSpinBox* spin(QWidget* parent, const char* name, int64_t lo, int64_t hi) {
    auto* box = new QSpinBox(parent);
    box->setObjectName(QLatin1String(name));
    box->setRange(int(lo), int(hi));
    box->setGroupSeparatorShown(true);
    box->setAccelerated(true);
    return box;
}

// The field TrainOptionFields made for training option `key` under `group`.
template <typename Field>
Field* optionField(const QWidget* group, const char* key) {
    return group->findChild<Field*>(QLatin1String(key));
}

QComboBox* combo(QWidget* parent, const char* name) {
    auto* box = new QComboBox(parent);
    box->setObjectName(QLatin1String(name));
    // Long item texts must not make the dock wider than the screen allows: the box shrinks and
    // its popup still shows the whole text.
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(10);
    return box;
}

// Selects the item whose data is `value`; keeps the selection when there is none.
void selectData(QComboBox* box, const QString& value) {
    const int index = box->findData(value);
    if (index >= 0) {
        box->setCurrentIndex(index);
    }
}

QString dataOf(const QComboBox* box) {
    return box->currentData().toString();
}

}  // namespace

RunPanel::RunPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("run_panel"));
    setMinimumWidth(330);
    // The form scrolls; Run, Stop and the error line stay in view below it.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("run_form_scroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    auto* form_widget = new QWidget(scroll);
    scroll->setWidget(form_widget);
    outer->addWidget(scroll, 1);
    auto* layout = new QVBoxLayout(form_widget);
    layout->setContentsMargins(2, 2, 2, 2);

    // The form sets up a new run; it never describes the run that is open. Where that run's
    // configuration is known, one button copies it into the form.
    m_intro = new QLabel(form_widget);
    m_intro->setObjectName(QStringLiteral("run_intro"));
    m_intro->setWordWrap(true);
    layout->addWidget(m_intro);
    m_sameAsOpen = new QPushButton(form_widget);
    m_sameAsOpen->setObjectName(QStringLiteral("same_as_open_run"));
    m_sameAsOpen->setEnabled(false);
    connect(m_sameAsOpen, &QPushButton::clicked, this, &RunPanel::fillFromOpenRun);
    layout->addWidget(m_sameAsOpen);

    // What runs: the built-in Tiny LLaMA trainer, or a Python program of the user's (issue 32).
    m_programGroup = new QGroupBox(this);
    m_programForm = new QFormLayout(m_programGroup);
    m_source = combo(m_programGroup, "source");
    m_source->addItem(QString(), QStringLiteral("trainer"));
    m_source->addItem(QString(), QStringLiteral("python"));
    m_script = new QLineEdit(m_programGroup);
    m_script->setObjectName(QStringLiteral("python"));
    m_script->setClearButtonEnabled(true);
    m_arguments = new QLineEdit(m_programGroup);
    m_arguments->setObjectName(QStringLiteral("python_arguments"));
    m_workingDirectory = new QLineEdit(m_programGroup);
    m_workingDirectory->setObjectName(QStringLiteral("python_working_directory"));
    m_interpreter = new QLineEdit(m_programGroup);
    m_interpreter->setObjectName(QStringLiteral("python_exe"));
    for (QWidget* w : std::initializer_list<QWidget*>{m_source, m_script, m_arguments,
                                                      m_workingDirectory, m_interpreter}) {
        m_programForm->addRow(new QLabel(m_programGroup), w);
    }
    layout->addWidget(m_programGroup);

    // Model.
    // The training options' fields come from their rows (TrainOptionFields, TrainOptionTable),
    // group by group, in the table's order: model, run length and training, numerics and memory
    // techniques, device.
    m_modelGroup = new QGroupBox(this);
    m_modelForm = new QFormLayout(m_modelGroup);
    m_runGroup = new QGroupBox(this);
    m_runForm = new QFormLayout(m_runGroup);
    m_numericsGroup = new QGroupBox(this);
    m_numericsForm = new QFormLayout(m_numericsGroup);
    m_deviceGroup = new QGroupBox(this);
    m_deviceForm = new QFormLayout(m_deviceGroup);
    const std::pair<QFormLayout*, FormGroup> groups[] = {{m_modelForm, FormGroup::Model},
                                                         {m_runForm, FormGroup::Run},
                                                         {m_numericsForm, FormGroup::Numerics},
                                                         {m_deviceForm, FormGroup::Device}};
    for (const auto& [form, group] : groups) {
        TrainOptionFields::add(form, &TrainOptionRow::run_panel, group, TrainOptionFields::Look());
    }
    TrainOptionFields::linkNeeds(this);
    m_preset = optionField<QComboBox>(m_modelGroup, "preset");
    // A shape of the user's own (the CLI's --preset custom); its text is set in retranslateUi.
    m_preset->addItem(QString(), QStringLiteral("custom"));
    m_device = optionField<QComboBox>(m_deviceGroup, "device");
    m_threads = optionField<QSpinBox>(m_deviceGroup, "threads");
    for (QGroupBox* group : {m_modelGroup, m_runGroup, m_numericsGroup}) {
        layout->addWidget(group);
    }
    m_recordShapes = new QCheckBox(m_deviceGroup);
    m_recordShapes->setObjectName(QStringLiteral("record_shapes"));
    m_recordShapes->setChecked(true);
    m_deviceForm->addRow(new QLabel(m_deviceGroup), m_recordShapes);
    layout->addWidget(m_deviceGroup);

    // Processes: several ranks of memscope-cli on c10d (the CLI's --nproc and --parallel).
    m_processGroup = new QGroupBox(this);
    m_processForm = new QFormLayout(m_processGroup);
    m_processes = spin(m_processGroup, "nproc", 1, std::max(1, QThread::idealThreadCount()));
    m_processes->setValue(1);
    m_parallel = combo(m_processGroup, "parallel");
    m_bucket = new QDoubleSpinBox(m_processGroup);
    m_bucket->setObjectName(QStringLiteral("bucket_mib"));
    m_bucket->setDecimals(2);
    m_bucket->setRange(0.01, 4096);
    m_bucket->setValue(25);
    m_output = new QLineEdit(m_processGroup);
    m_output->setObjectName(QStringLiteral("out"));
    m_output->setClearButtonEnabled(true);
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_processes, m_parallel, m_bucket, m_output}) {
        m_processForm->addRow(new QLabel(m_processGroup), w);
    }
    layout->addWidget(m_processGroup);

    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(this);
    m_run->setObjectName(QStringLiteral("run_button"));
    m_run->setDefault(true);
    m_stop = new QPushButton(this);
    m_stop->setObjectName(QStringLiteral("stop_button"));
    m_stop->setEnabled(false);
    buttons->addWidget(m_run, 1);
    buttons->addWidget(m_stop, 1);
    layout->addStretch();
    outer->addLayout(buttons);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("run_error"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b71c1c;"));
    m_error->hide();
    outer->addWidget(m_error);

    retranslateUi();
    connect(TorchPartLoader::instance(), &TorchPartLoader::ready, this,
            [this] { retranslateUi(); });
    connect(m_device, &QComboBox::activated, this, [this] { m_wantedDevice.clear(); });

    connect(m_run, &QPushButton::clicked, this, &RunPanel::runRequested);
    connect(m_stop, &QPushButton::clicked, this, &RunPanel::stopRequested);
    connect(m_preset, &QComboBox::activated, this,
            [this](int index) { applyPreset(m_preset->itemData(index).toString()); });
    // Any edit clears a stale error.
    const auto clear = [this] {
        m_error->hide();
        for (QWidget* w : findChildren<QWidget*>()) {
            if (w->property("invalid").toBool()) {
                w->setProperty("invalid", false);
                w->setStyleSheet(QString());
            }
        }
    };
    for (QSpinBox* box : findChildren<QSpinBox*>()) {
        connect(box, &QSpinBox::valueChanged, this, clear);
    }
    for (QComboBox* box : findChildren<QComboBox*>()) {
        connect(box, &QComboBox::currentIndexChanged, this, clear);
    }
    for (QDoubleSpinBox* box : findChildren<QDoubleSpinBox*>()) {
        connect(box, &QDoubleSpinBox::valueChanged, this, clear);
    }
    for (QLineEdit* edit : findChildren<QLineEdit*>()) {
        connect(edit, &QLineEdit::textChanged, this, clear);
    }
    connect(m_processes, &QSpinBox::valueChanged, this, [this] { updateDependentFields(); });
    connect(m_source, &QComboBox::currentIndexChanged, this, [this] { updateDependentFields(); });

    // Every core but one: the interface keeps a core to paint on while the run trains (see
    // ThreadPolicy); 0, "all cores", stays a choice.
    TrainOptions defaults;
    defaults.threads = ThreadPolicy::interactiveThreads();
    setOptions(defaults);
}

void RunPanel::setOpenRun(const RunMetadata* meta) {
    m_openOptions.reset();
    m_openProgram.clear();
    if (meta != nullptr) {
        m_openOptions = recordedOptions(*meta);
        const auto& config = meta->config;
        if (!m_openOptions && config.is_object() && config.contains("program") &&
            config["program"].is_object()) {
            const auto& program = config["program"];
            const auto text = [&program](const char* key) {
                return program.contains(key) && program[key].is_string()
                           ? QString::fromStdString(program[key].get<std::string>())
                           : QString();
            };
            QStringList arguments;
            if (program.contains("argv") && program["argv"].is_array()) {
                for (const auto& a : program["argv"]) {
                    if (a.is_string()) {
                        arguments << QString::fromStdString(a.get<std::string>());
                    }
                }
            }
            const QString script = program.contains("module")
                                       ? QStringLiteral("-m ") + text("module")
                                       : text("script");
            if (!script.isEmpty()) {
                m_openProgram = {script, arguments.join(QLatin1Char(' ')), text("cwd"),
                                 text("python")};
            }
        }
    }
    m_sameAsOpen->setEnabled(m_openOptions.has_value() || !m_openProgram.isEmpty());
    retranslateUi();
}

void RunPanel::fillFromOpenRun() {
    if (m_openOptions) {
        setTrainerSource();
        setOptions(*m_openOptions);
    } else if (m_openProgram.size() == 4) {
        setPythonProgram(m_openProgram[0], m_openProgram[1], m_openProgram[2], m_openProgram[3]);
    }
}

void RunPanel::retranslateUi() {
    m_intro->setText(tr("Sets up a new run. The run that is open keeps its own settings."));
    m_sameAsOpen->setText(tr("Same settings as the open run"));
    m_sameAsOpen->setToolTip(m_sameAsOpen->isEnabled()
                                 ? tr("Fill the form with the open run's recorded configuration")
                                 : tr("The open run's configuration is not known (an import "
                                      "without --config, or no run is open)"));
    m_programGroup->setTitle(tr("Program"));
    m_source->setItemText(0, tr("Built-in Tiny LLaMA"));
    m_source->setItemText(1, tr("Python program"));
    m_script->setPlaceholderText(tr("train.py, or -m package.module"));
    m_arguments->setPlaceholderText(tr("--epochs 3 --lr 0.01"));
    m_workingDirectory->setPlaceholderText(tr("the current folder"));
    m_interpreter->setPlaceholderText(QStringLiteral("python3"));
    m_modelGroup->setTitle(tr("Model"));
    m_runGroup->setTitle(tr("Run"));
    m_numericsGroup->setTitle(tr("Precision and memory techniques"));
    m_deviceGroup->setTitle(tr("Device"));
    // A field of the panel's own: its label, and its tip.
    const auto label = [](QFormLayout* form, QWidget* field, const QString& text,
                          const QString& tip) {
        if (auto* l = qobject_cast<QLabel*>(form->labelForField(field))) {
            l->setText(text);
            l->setBuddy(field);
        }
        field->setToolTip(tip);
    };
    // The training options' labels, tips and choices are their rows' (TrainOptionTable,
    // translated).
    for (QFormLayout* form : {m_modelForm, m_runForm, m_numericsForm, m_deviceForm}) {
        TrainOptionFields::retranslate(form, TrainOptionFields::Look());
    }
    label(m_programForm, m_source, tr("Source:"),
          tr("Train the built-in Tiny LLaMA with the settings below, or record a PyTorch program "
             "of your own as it runs (memscope-cli record --python)"));
    label(m_programForm, m_script, tr("Script:"),
          tr("The program's script, or -m and a module, as you would give them to python"));
    label(m_programForm, m_arguments, tr("Arguments:"),
          tr("The program's own arguments (quoted as in a shell)"));
    label(m_programForm, m_workingDirectory, tr("Working folder:"),
          tr("Where the program runs; empty: Memscope's current folder"));
    label(m_programForm, m_interpreter, tr("Interpreter:"),
          tr("The Python whose torch the recorder was built against (--python-exe)"));
    m_preset->setItemText(m_preset->findData(QStringLiteral("custom")), tr("custom"));
    m_threads->setSpecialValueText(tr("all cores (%1)").arg(QThread::idealThreadCount()));
    label(m_deviceForm, m_recordShapes, tr("Recording:"),
          tr("Also record each operator's input shapes: FLOPs, arithmetic intensity and the "
             "roofline in the summary (--record-shapes; slightly slower)"));
    m_recordShapes->setText(tr("Record input shapes"));

    m_processGroup->setTitle(tr("Processes"));
    label(m_processForm, m_processes, tr("Processes:"),
          tr("Train on this many processes (ranks) of memscope-cli on c10d, each recorded; 1 "
             "trains in the application itself (--nproc)"));
    label(m_processForm, m_parallel, tr("Strategy:"),
          tr("How the ranks share the training: data parallel or ZeRO stage 1 to 3 "
             "(--parallel)"));
    label(m_processForm, m_bucket, tr("Bucket size:"),
          tr("Gradient bucket size of the collectives (--bucket-mib)"));
    m_bucket->setSuffix(tr(" MiB"));
    label(m_processForm, m_output, tr("Output folder:"),
          tr("The run directory the ranks record into (one file per rank and manifest.json); "
             "empty: a new folder beside the kept runs (--out)"));
    m_output->setPlaceholderText(tr("new folder beside the kept runs"));

    // Items keep their data (the CLI spelling) and change only their text. The items are the
    // option's names from core, in core's order; a name without a text here shows as itself.
    const auto fill = [](QComboBox* box, const std::vector<std::string>& names,
                         const QHash<QString, QString>& texts) {
        const QString current = dataOf(box);
        const QSignalBlocker block(box);
        box->clear();
        for (const std::string& name : names) {
            const QString data = QString::fromStdString(name);
            box->addItem(texts.value(data, data), data);
        }
        selectData(box, current);
    };
    fill(m_parallel, parallelModeNames(),
         {{QStringLiteral("ddp"), tr("DDP (gradients all-reduced)")},
          {QStringLiteral("zero1"), tr("ZeRO-1 (optimizer state sharded)")},
          {QStringLiteral("zero2"), tr("ZeRO-2 (optimizer state and gradients sharded)")},
          {QStringLiteral("zero3"), tr("ZeRO-3 (parameters sharded too)")}});
    // What exists: the CPU always, then each GPU LibTorch can use, by --device spelling. The GPUs
    // are added when the LibTorch part is loaded (in the background after the window shows).
    std::vector<std::string> devices{"cpu"};
    QHash<QString, QString> device_texts{{QStringLiteral("cpu"), tr("CPU")}};
    if (TorchPart* part = TorchPartLoader::loadedPart()) {
        for (const auto& d : part->devices().devices()) {
            if (d.kind == "cuda") {
                devices.push_back(d.torch_device);
                device_texts.insert(
                    QString::fromStdString(d.torch_device),
                    tr("GPU %1: %2").arg(d.index).arg(QString::fromStdString(d.name)));
            }
        }
    }
    fill(m_device, devices, device_texts);
    if (!m_wantedDevice.isEmpty() && dataOf(m_device) != m_wantedDevice) {
        selectData(m_device, m_wantedDevice);  // a GPU asked for before the list had it
    }

    m_run->setText(tr("Run (F5)"));
    m_run->setToolTip(tr("Train with these settings and record every allocation"));
    m_stop->setText(tr("Stop (Esc)"));
    m_stop->setToolTip(tr("Stop the run; everything recorded so far is kept"));
}

void RunPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

void RunPanel::applyPreset(const QString& name) {
    const Preset* preset = Preset::find(name.toStdString());
    if (!preset) {
        return;
    }
    TrainOptions o;
    try {
        o = options();
    } catch (const ConfigError&) {
        // Keep the non-model fields as they are shown even when the form is invalid now.
    }
    o.preset = preset->name;
    o.model = preset->model;
    o.batch_size = preset->batch_size;
    o.seq_len = preset->seq_len;
    setOptions(o);
}

void RunPanel::setOptions(const TrainOptions& o) {
    TrainOptionFields::show(this, o, &TrainOptionRow::run_panel);
    // A GPU is listed once the LibTorch part is loaded: it is chosen then.
    const QString device = QString::fromStdString(o.device);
    m_wantedDevice = device == QLatin1String("cuda") ? QStringLiteral("cuda:0") : device;
    selectData(m_device, m_wantedDevice);
    updateDependentFields();
}

TrainOptions RunPanel::options() const {
    TrainOptions o = TrainOptionFields::read(this, TrainOptions(), &TrainOptionRow::run_panel);
    o.validate();
    return o;
}

std::optional<TrainOptions> RunPanel::validatedOptions() {
    try {
        TrainOptions o = options();
        QString option, message;
        if (!checkProcesses(o, &option, &message)) {
            showError(option, message);
            return std::nullopt;
        }
        m_error->hide();
        return o;
    } catch (const ConfigError& e) {
        showError(QString::fromStdString(e.option()), errorText(e));
    } catch (const std::exception& e) {
        showError(QString(), errorText(e));
    }
    return std::nullopt;
}

QWidget* RunPanel::fieldForOption(const QString& option) const {
    // A training option by any of its spellings (--context-length is --seq-len's field), else a
    // field of the panel's own by its name ("--out": out).
    const TrainOptionRow* row = TrainOptionTable::find(option.toStdString());
    const QString name =
        row != nullptr ? QString::fromLatin1(row->key)
                       : QString(option).remove(0, 2).replace(QLatin1Char('-'), QLatin1Char('_'));
    return findChild<QWidget*>(name);
}

void RunPanel::showError(const QString& option, const QString& message) {
    m_error->setText(message);
    m_error->show();
    if (QWidget* field = fieldForOption(option)) {
        field->setProperty("invalid", true);
        field->setStyleSheet(QStringLiteral("border: 1px solid #c62828;"));
        field->setFocus();
    }
}

void RunPanel::updateDependentFields() {
    const bool python = pythonSource();
    for (QWidget* w : std::initializer_list<QWidget*>{m_script, m_arguments, m_workingDirectory,
                                                      m_interpreter}) {
        w->setEnabled(python);
    }
    // The program defines its own model and run.
    for (QGroupBox* group :
         {m_modelGroup, m_runGroup, m_numericsGroup, m_deviceGroup, m_processGroup}) {
        group->setVisible(!python);
    }
    const bool ranks = m_processes->value() > 1;
    m_parallel->setEnabled(ranks);
    m_bucket->setEnabled(ranks);
    m_output->setEnabled(ranks);
}

bool RunPanel::checkProcesses(const TrainOptions& o, QString* option, QString* message) const {
    if (processes() <= 1) {
        return true;
    }
    // The rules memscope-cli applies (ParallelRules), so that the panel refuses what the CLI
    // would, with its words and the option it names.
    try {
        ParallelRules::check(
            o, parseParallelMode(parallel().toStdString()).value_or(ParallelMode::Ddp),
            processes());
        ParallelRules::checkBucket(bucketMib());
    } catch (const ConfigError& e) {
        *option = QString::fromStdString(e.option());
        *message = errorText(e);
        return false;
    }
    const QString out = outputDirectory();
    if (!out.isEmpty()) {
        const QFileInfo info(out);
        if (info.exists() && !info.isDir()) {
            *option = QStringLiteral("--out");
            *message = tr("%1 is a file; a run of several processes writes a folder there (--out).")
                           .arg(QDir::toNativeSeparators(out));
            return false;
        }
        if (info.isDir() && !QDir(out).isEmpty()) {
            *option = QStringLiteral("--out");
            *message = tr("%1 is not empty; choose a new or empty folder for the ranks' files "
                          "(--out).")
                           .arg(QDir::toNativeSeparators(out));
            return false;
        }
    }
    return true;
}

int RunPanel::processes() const {
    return m_processes->value();
}

void RunPanel::setProcesses(int processes) {
    m_processes->setValue(processes);
}

QString RunPanel::parallel() const {
    return dataOf(m_parallel);
}

void RunPanel::setParallel(const QString& strategy) {
    selectData(m_parallel, strategy);
}

double RunPanel::bucketMib() const {
    return m_bucket->value();
}

void RunPanel::setBucketMib(double mib) {
    m_bucket->setValue(mib);
}

QString RunPanel::outputDirectory() const {
    return m_output->text().trimmed();
}

void RunPanel::setOutputDirectory(const QString& dir) {
    m_output->setText(dir);
}

void RunPanel::showProblem(const QString& message) {
    showError(QString(), message);
}

void RunPanel::setRunning(bool running) {
    m_run->setEnabled(!running);
    m_stop->setEnabled(running);
    for (QGroupBox* group : {m_programGroup, m_modelGroup, m_runGroup, m_numericsGroup,
                             m_deviceGroup, m_processGroup}) {
        group->setEnabled(!running);
    }
}

bool RunPanel::recordShapes() const {
    return m_recordShapes->isChecked();
}

void RunPanel::setRecordShapes(bool on) {
    m_recordShapes->setChecked(on);
}

bool RunPanel::pythonSource() const {
    return dataOf(m_source) == QLatin1String("python");
}

void RunPanel::setPythonProgram(const QString& script, const QString& arguments,
                                const QString& working_directory, const QString& interpreter) {
    selectData(m_source, QStringLiteral("python"));
    m_script->setText(script);
    m_arguments->setText(arguments);
    m_workingDirectory->setText(working_directory);
    m_interpreter->setText(interpreter);
    updateDependentFields();
}

void RunPanel::setTrainerSource() {
    selectData(m_source, QStringLiteral("trainer"));
    updateDependentFields();
}

std::optional<RankRunController::Request> RunPanel::validatedRequest() {
    RankRunController::Request request;
    if (pythonSource()) {
        const QString script = m_script->text().trimmed();
        const QString dir = m_workingDirectory->text().trimmed();
        if (script.isEmpty()) {
            showError(QStringLiteral("--python"), tr("--python: name the program's script (or "
                                                     "-m and a module)"));
            return std::nullopt;
        }
        if (!dir.isEmpty() && !QFileInfo(dir).isDir()) {
            showError(QStringLiteral("--python_working_directory"),
                      tr("%1 is not a folder (Working folder)").arg(QDir::toNativeSeparators(dir)));
            return std::nullopt;
        }
        QStringList program = QProcess::splitCommand(script);
        const bool module = program.value(0) == QLatin1String("-m");
        const QString file = QFileInfo(program.value(0)).isAbsolute() || dir.isEmpty()
                                 ? program.value(0)
                                 : QDir(dir).filePath(program.value(0));
        if (!module && !QFileInfo::exists(file)) {
            showError(QStringLiteral("--python"),
                      tr("--python: %1 does not exist").arg(QDir::toNativeSeparators(file)));
            return std::nullopt;
        }
        if (module && program.size() < 2) {
            showError(QStringLiteral("--python"), tr("--python: -m needs a module"));
            return std::nullopt;
        }
        request.python = program + QProcess::splitCommand(m_arguments->text());
        request.pythonExe = m_interpreter->text().trimmed().isEmpty()
                                ? QStringLiteral("python3")
                                : m_interpreter->text().trimmed();
        request.workingDirectory = dir;
        request.processes = 1;
        m_error->hide();
        return request;
    }
    const auto options = validatedOptions();
    if (!options) {
        return std::nullopt;
    }
    request.options = *options;
    request.recordShapes = recordShapes();
    request.processes = processes();
    request.parallel = parallel();
    request.bucketMib = bucketMib();
    request.directory = outputDirectory();
    return request;
}

void RunPanel::saveSettings() const {
    QSettings settings = appSettings();
    settings.setValue(QLatin1String(k_source_key), dataOf(m_source));
    settings.setValue(QLatin1String(k_python_key),
                      QStringList{m_script->text(), m_arguments->text(), m_workingDirectory->text(),
                                  m_interpreter->text()});
    settings.setValue(QLatin1String(k_shapes_key), recordShapes());
    // The process count is not kept: every session starts with a run in the application.
    settings.setValue(QLatin1String(k_parallel_key), parallel());
    settings.setValue(QLatin1String(k_bucket_key), bucketMib());
    try {
        settings.setValue(QLatin1String(k_options_key),
                          QString::fromStdString(options().toJson().dump()));
    } catch (const std::exception&) {
        // An invalid form is not worth remembering: the last valid one stays.
    }
}

void RunPanel::restoreSettings() {
    const QSettings settings = appSettings();
    const QStringList python = settings.value(QLatin1String(k_python_key)).toStringList();
    if (python.size() == 4) {
        m_script->setText(python[0]);
        m_arguments->setText(python[1]);
        m_workingDirectory->setText(python[2]);
        m_interpreter->setText(python[3]);
    }
    selectData(m_source,
               settings.value(QLatin1String(k_source_key), QStringLiteral("trainer")).toString());
    updateDependentFields();
    m_recordShapes->setChecked(settings.value(QLatin1String(k_shapes_key), true).toBool());
    setParallel(settings.value(QLatin1String(k_parallel_key), QStringLiteral("ddp")).toString());
    setBucketMib(settings.value(QLatin1String(k_bucket_key), 25.0).toDouble());
    const QString text = settings.value(QLatin1String(k_options_key)).toString();
    if (text.isEmpty()) {
        return;
    }
    try {
        setOptions(TrainOptions::fromJson(nlohmann::json::parse(text.toStdString())));
    } catch (const std::exception&) {
        // A setting from another version or edited by hand: the defaults stay.
    }
}

}  // namespace memscope
