#pragma once

#include "outcome.h"
#include "run/run_range.h"

#include <QFuture>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <memory>

namespace memscope {

class RunDocument;
class TimelineLayout;
class Trace;

// The open run's one owner and the GUI's one loader (issue 30), beside the RunDocument it feeds.
//
// It opens any run RunSource opens (a .memscope file, a PyTorch snapshot, a run directory and
// its ranks, a journal) without a nested event loop: files of at most kInlineBytes in all are
// read and laid out here and now (about 10 ms), larger ones on a worker thread with
// progressChanged() and cancel(). The trace and its timeline layout reach the document together.
// It keeps a run directory's ranks and switches between them when the document's rank changes,
// reads a second run for comparison, and takes the live snapshots of the run controllers
// (controller -> session -> document -> views). Every failure is one failed(message) naming the
// file; a cancelled load is not a failure (cancelled()). Whatever was open stays open when a
// load fails or is cancelled.
class RunSession : public QObject {
    Q_OBJECT

  public:
    // Loads of at most this many bytes (all files together) run on the calling thread.
    static constexpr qint64 kInlineBytes = 4 << 20;
    // A snapshot of more bytes than this opened whole shows a preview first (issue 52: a first
    // picture of a big file in seconds): its first kPreviewEntries trace entries, read, laid
    // out and shown while the worker goes on to read the whole file, which then replaces it.
    // A run file read on the worker (over kInlineBytes) does the same with its first
    // kPreviewEntries events (whole chunks of them) when it has more.
    static constexpr qint64 kPreviewBytes = 64 << 20;
    static constexpr uint64_t kPreviewEntries = 1'000'000;
    // Other thresholds for the preview (tests: a small file previewed).
    void setPreview(qint64 bytes, uint64_t entries) {
        m_previewBytes = bytes;
        m_previewEntries = entries;
    }
    // What a snapshot opened whole holds in memory per byte of its file, at most: the trace,
    // its timeline layout, the pages and the LibTorch part (measured, the window left open 60 s
    // after opening: 1.12x for a 1.075 GB generated snapshot of 18.3M entries with every event
    // column packed, 1.35x with the 64-bit ones only, 1.8x before packing; 1.57x before it for
    // a 10.75 GB one of 182.6M; 0.95x and 0.74x since allocations keep 12 bytes, issue 52's
    // eighth part; course snapshots, with more frames per entry, need less per byte). A big
    // snapshot whose whole run needs more than the memory available keeps its preview as the run
    // shown, said so, instead of being swapped or killed reading the rest (issue 52).
    static constexpr double kMemoryPerSnapshotByte = 1.2;
    // The same for a run file, per event (its header counts them; its bytes are compressed):
    // 1.18 GB for the 12.18M events of that snapshot, about 97 bytes an event.
    static constexpr double kMemoryPerEvent = 105;
    // The memory available to a load now, in bytes (Linux: MemAvailable of /proc/meminfo), or
    // -1 where not known (no guard then).
    static qint64 availableMemory();
    // Another figure than availableMemory()'s (tests; -1: the machine's).
    void setAvailableMemory(qint64 bytes) { m_availableMemory = bytes; }

    explicit RunSession(RunDocument* document, QObject* parent = nullptr);
    // Cancels a load still going and waits for its worker.
    ~RunSession() override;

    RunDocument* document() const { return m_document; }

    // Opens PATH as the run shown: `range` of it (run files and snapshots), and of a run
    // directory `rank` (-1 or an unreadable rank: the first readable one). False when a load is
    // going already or a small file failed here and now (failed() was emitted); true when the run
    // is open or opening on a worker (loadFinished() tells how it ended).
    bool open(const QString& path, const RunRange& range = RunRange(), int rank = -1);
    // Reads a second run to compare with the one shown: a run directory by the rank of the same
    // number as the one shown (rank 0 when it has fewer). compareReady() or failed(); the
    // return value as open().
    bool openForComparison(const QString& path);
    // Shows a trace already in memory (a test's, a run just recorded), with the file it came
    // from (empty: not saved).
    void show(std::shared_ptr<const Trace> trace, const QString& path = QString());
    // Writes the run shown as a .memscope file and makes PATH its file. Fails without a run
    // (with no message), or with "Memscope could not write PATH." and the reason.
    Outcome save(const QString& path);
    // Writes `trace` as a .memscope file at PATH, on any thread (a run controller keeps each
    // recorded run so); fails with why not.
    static Outcome writeRunFile(const Trace& trace, const QString& path);
    // Stops a load going; it ends with cancelled().
    void cancel();
    bool isLoading() const { return m_loading; }

    // The file of the run shown (a rank's file for a run directory); empty when not saved.
    QString path() const { return m_path; }
    // A run directory's folder (empty for a single run).
    QString directory() const { return m_directory; }
    bool hasRanks() const { return !m_ranks.isEmpty(); }
    int rankCount() const { return int(m_ranks.size()); }
    // The rank shown (-1: a single run).
    int rank() const { return m_rank; }
    // A rank's trace (nullptr where its file is missing or unreadable) and file.
    std::shared_ptr<const Trace> rankTrace(int rank) const;
    QString rankPath(int rank) const;
    // Which process of a Python program a rank is ("spawn, pid 4242": its role and pid from the
    // manifest); empty for the built-in trainer's ranks.
    QString rankProcess(int rank) const;
    // Shows another rank of the open run directory; false when it has no readable trace.
    bool showRank(int rank);

    // Live runs. beginLive() forgets the run shown; takeSnapshot() shows a newer state of the
    // run being recorded (laid out by the controller; nullptr: laid out by the timeline): one
    // that continues the trace shown (same start, at least as many events) updates the views in
    // place. finishLive() shows the final state and the file the run was kept as.
    void beginLive();
    void takeSnapshot(std::shared_ptr<const Trace> trace, std::shared_ptr<TimelineLayout> layout);
    void finishLive(std::shared_ptr<const Trace> trace, std::shared_ptr<TimelineLayout> layout,
                    const QString& saved_path);
    bool isLive() const { return m_live; }

  signals:
    void loadingChanged(bool loading);
    // Only for loads on a worker: the fraction read, in [0, 1], at most once per 1/1000.
    void progressChanged(double fraction);
    // PATH is shown; `what` says what was read ("2,000 events", "3 of 4 ranks, ddp").
    void opened(const QString& path, const QString& what);
    void cancelled(const QString& path);
    // "Memscope could not open PATH." with the reason: the one failure of every load.
    void failed(const QString& message);
    // After opened(), cancelled() or failed() of a load: whether a run was opened.
    void loadFinished(bool ok);
    // A second run read by openForComparison(), and the name to show for it.
    void compareReady(std::shared_ptr<const memscope::Trace> other, const QString& name);
    // The ranks of the run shown changed (opened, switched, cleared).
    void ranksChanged();
    // Lines for the log (a rank that could not be read, a preview shown).
    void logMessage(const QString& line);
    // A big snapshot's preview is shown while the rest of it loads (loading stays true).
    void previewShown(const QString& path);
    // A big file's preview is the run shown: the whole file needs more memory than is
    // available (kMemoryPerSnapshotByte, kMemoryPerEvent). `message` says so, with both
    // figures. After opened().
    void keptPreview(const QString& message);
    // The run shown changed: a new path, an opened or recorded run, or none.
    void runChanged();

  public:
    // What a load read (defined in the .cpp; its reader runs on worker threads).
    struct Loaded;

  private:
    bool startLoad(const QString& path, const RunRange& range, int rank, bool comparison);
    void finishLoad(const Loaded& loaded);
    void showPreview(const Loaded& preview);
    void setLoading(bool loading);
    void clearRanks();

    RunDocument* m_document = nullptr;
    QString m_path;
    QString m_directory;
    QVector<std::shared_ptr<const Trace>> m_ranks;
    QStringList m_rankPaths;
    QStringList m_rankProcesses;
    int m_rank = -1;
    qint64 m_previewBytes = kPreviewBytes;
    uint64_t m_previewEntries = kPreviewEntries;
    qint64 m_availableMemory = -1;
    bool m_live = false;
    bool m_loading = false;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<std::atomic<int>> m_posted;
    QFuture<void> m_worker;
};

}  // namespace memscope
