#pragma once

#include "run/train_options.h"
#include "runs/rank_run_controller.h"
#include "trace/trace.h"

#include <QStringList>
#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace memscope {

// The form that defines a training run: every TrainOptions field, grouped like the CLI's help
// (preset and model shape; batch, sequence and steps; numerics; device; processes), with Run and
// Stop buttons. Picking a preset fills the model shape, batch and sequence; editing a field
// afterwards keeps the preset's name so the run still says where it started. options() validates
// the whole form and names the offending field, the same ConfigError text the CLI prints.
class RunPanel : public QWidget {
    Q_OBJECT

  public:
    explicit RunPanel(QWidget* parent = nullptr);

    // The options the form describes. Throws ConfigError naming the option when they cannot run.
    TrainOptions options() const;
    // Like options(), but reports the problem in the panel's error line instead of throwing.
    std::optional<TrainOptions> validatedOptions();
    void setOptions(const TrainOptions& options);
    // Whether the run also records op input shapes (FLOPs and the roofline in the summary).
    bool recordShapes() const;
    void setRecordShapes(bool on);
    // Fills the model shape, batch and sequence length from a preset.
    void applyPreset(const QString& name);

    // The multi-process settings, the CLI's --nproc, --parallel, --bucket-mib and --out: with
    // more than one process the run trains on that many ranks of memscope-cli (validatedOptions
    // checks the combination). An empty output folder: a new one beside the kept runs.
    int processes() const;
    void setProcesses(int processes);
    QString parallel() const;  // "ddp", "zero1", "zero2" or "zero3"
    void setParallel(const QString& strategy);
    double bucketMib() const;
    void setBucketMib(double mib);
    QString outputDirectory() const;
    void setOutputDirectory(const QString& dir);
    // The program: the built-in trainer (the options above) or a Python program of the user's
    // (issue 32), recorded through memscope-cli record --python on one process.
    bool pythonSource() const;
    void setPythonProgram(const QString& script, const QString& arguments,
                          const QString& working_directory, const QString& interpreter);
    void setTrainerSource();
    // What Run starts: the validated options and multi-process settings, or the Python
    // program (its script checked to exist, or -m MODULE); the problem in the error line and
    // nullopt when it cannot run.
    std::optional<RankRunController::Request> validatedRequest();
    // Shows `message` in the error line (a run that could not start or failed at once).
    void showProblem(const QString& message);
    // The configuration of the run that is open, where one is known (recordedOptions: the
    // built-in trainer's options; a Python program's script, arguments, folder and
    // interpreter), for "Same settings as the open run", which fills the form from it. The
    // form itself always sets up a new run; a run being opened does not change it.
    void setOpenRun(const RunMetadata* meta);
    QPushButton* sameAsOpenButton() const { return m_sameAsOpen; }

    // Run and Stop are the main window's actions (F5, Esc): the buttons mirror them.
    void setRunning(bool running);
    QPushButton* runButton() const { return m_run; }
    QPushButton* stopButton() const { return m_stop; }
    QLabel* errorLabel() const { return m_error; }

    // The last configuration, kept in QSettings between sessions.
    void saveSettings() const;
    void restoreSettings();

  signals:
    void runRequested();
    void stopRequested();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void retranslateUi();
    void updateDependentFields();
    // Shows `message` under the buttons and points at the field for `option` (a CLI name).
    void showError(const QString& option, const QString& message);
    QWidget* fieldForOption(const QString& option) const;
    // The multi-process checks the CLI makes (ParallelOptionSet), with the GUI's words: false
    // with the option and the message when `o` cannot run on processes().
    bool checkProcesses(const TrainOptions& o, QString* option, QString* message) const;

    void fillFromOpenRun();

    QLabel* m_intro = nullptr;
    QPushButton* m_sameAsOpen = nullptr;
    std::optional<TrainOptions> m_openOptions;
    QStringList m_openProgram;  // script, arguments, working folder, interpreter
    QGroupBox* m_programGroup = nullptr;
    QFormLayout* m_programForm = nullptr;
    QComboBox* m_source = nullptr;
    QLineEdit* m_script = nullptr;
    QLineEdit* m_arguments = nullptr;
    QLineEdit* m_workingDirectory = nullptr;
    QLineEdit* m_interpreter = nullptr;
    QGroupBox* m_modelGroup = nullptr;
    QGroupBox* m_runGroup = nullptr;
    QGroupBox* m_numericsGroup = nullptr;
    QGroupBox* m_deviceGroup = nullptr;
    QGroupBox* m_processGroup = nullptr;
    QFormLayout* m_modelForm = nullptr;
    QFormLayout* m_runForm = nullptr;
    QFormLayout* m_numericsForm = nullptr;
    QFormLayout* m_deviceForm = nullptr;
    QFormLayout* m_processForm = nullptr;

    // The training options' fields are found by their keys (TrainOptionFields); these three
    // do more than show a value: the preset fills the model, the device list is this machine's,
    // and "all cores" counts them.
    QComboBox* m_preset = nullptr;
    QComboBox* m_device = nullptr;
    QSpinBox* m_threads = nullptr;
    // The device setOptions asked for (a GPU is listed once the LibTorch part is loaded); cleared
    // when the user picks one.
    QString m_wantedDevice;
    QCheckBox* m_recordShapes = nullptr;

    QSpinBox* m_processes = nullptr;
    QComboBox* m_parallel = nullptr;
    QDoubleSpinBox* m_bucket = nullptr;
    QLineEdit* m_output = nullptr;

    QPushButton* m_run = nullptr;
    QPushButton* m_stop = nullptr;
    QLabel* m_error = nullptr;
};

}  // namespace memscope
