#pragma once

#include <QFutureWatcher>
#include <QVector>
#include <QWidget>

#include "explain/step_growth.h"

#include <cstdint>
#include <memory>

class QComboBox;
class QLabel;
class QTableWidget;

namespace memscope {

class RunDocument;
class Trace;

// The Growth tab (issue 53): why memory grows every step. A verdict line ("Grows 48.5 KiB a step
// from step 2 ..."), the places that keep what their steps made (StepGrowth's groups, by the
// stack that made it or by module: trend, bytes and allocations a step, the steps, where it was
// made and from which line of the program), and per complete step its end-of-step floor and
// what it made that the next step and the last step still hold. Clicking a place highlights
// the allocations it kept on the timeline (the run document's highlights); clicking it again
// clears them.
//
// Runs with more than kAsyncEvents events are analysed on a worker thread; a result for a run
// that was replaced meanwhile is dropped.
class GrowthPage : public QWidget {
    Q_OBJECT

  public:
    static constexpr size_t kAsyncEvents = 200000;

    explicit GrowthPage(RunDocument* document, QWidget* parent = nullptr);
    ~GrowthPage() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    const StepGrowth* growth() const { return m_growth.get(); }
    bool isComputing() const { return m_pending; }
    void setAsyncEvents(size_t events) { m_asyncEvents = events; }

    QLabel* verdictLabel() const { return m_verdict; }
    QComboBox* groupingBox() const { return m_grouping; }
    QTableWidget* placesTable() const { return m_places; }
    QTableWidget* stepsTable() const { return m_steps; }

  public slots:
    // Highlights the kept allocations of row `row` of the places table (again: clears them).
    void toggleRow(int row);

  signals:
    // The analysis shown is that of the current run.
    void growthReady();
    void allocationsHighlighted(const QVector<qint64>& allocations);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void adopt(std::shared_ptr<const StepGrowth> growth);
    // The groups the places table shows: by module or by stack (m_growth set).
    const std::vector<StepGrowth::Group>& shownGroups() const;
    void fillPlaces();
    void fillSteps();
    void updateVerdict();
    void retranslateUi();

    RunDocument* m_state = nullptr;
    std::shared_ptr<const StepGrowth> m_growth;
    size_t m_asyncEvents = kAsyncEvents;
    bool m_pending = false;
    uint64_t m_generation = 0;
    QFutureWatcher<std::shared_ptr<const StepGrowth>>* m_watcher = nullptr;
    int m_highlightedRow = -1;

    QLabel* m_verdict = nullptr;
    QLabel* m_placesTitle = nullptr;
    QLabel* m_groupingLabel = nullptr;
    QComboBox* m_grouping = nullptr;
    QLabel* m_hint = nullptr;
    QTableWidget* m_places = nullptr;
    QLabel* m_stepsTitle = nullptr;
    QTableWidget* m_steps = nullptr;
};

}  // namespace memscope
