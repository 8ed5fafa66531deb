#pragma once

#include <QFutureWatcher>
#include <QGroupBox>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <string>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace memscope {

class ProgramMemoryFit;
struct DeviceSpec;

// The Planner page's part for a user's own program (issue 44): opens the directory of a
// `memscope-cli sweep --python`, fits it (ProgramMemoryFit, on a worker: a sweep file holds
// thousands of places per point), and predicts the sizes typed as d=2560,L=32,s=512,b=4: the
// first-step and steady peaks by phase, the categories at the peak, the fit's check, and with
// the page's device whether it fits and the largest batch. Sizes the fit cannot say are
// refused with the fit's reason, as predict --fit does.
class ProgramFitPanel : public QGroupBox {
    Q_OBJECT

  public:
    explicit ProgramFitPanel(QWidget* parent = nullptr);
    ~ProgramFitPanel() override;

    // Loads and fits DIR/program_sweep.json on a worker; loaded() or failed() follows.
    void loadSweep(const QString& dir);
    // The device the prediction is held against (nullptr: none); the page's device.
    void setDevice(const DeviceSpec* device);
    bool hasFit() const { return m_fit != nullptr; }

    QLineEdit* sizesEdit() const { return m_sizes; }
    QTableWidget* phaseTable() const { return m_table; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* resultLabel() const { return m_result; }

  signals:
    void loaded();
    void failed(const QString& message);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    struct Loaded;
    void retranslate();
    void finishLoading();
    void updatePrediction();

    QFutureWatcher<std::shared_ptr<Loaded>> m_watcher;
    std::shared_ptr<const ProgramMemoryFit> m_fit;
    std::map<std::string, std::pair<int64_t, std::string>> m_multiples;  // d_ff -> (4, d)
    QString m_dir;
    QString m_summary;
    QString m_error;
    std::unique_ptr<DeviceSpec> m_device;

    QPushButton* m_open = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_sizesLabel = nullptr;
    QLineEdit* m_sizes = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_result = nullptr;
};

}  // namespace memscope
