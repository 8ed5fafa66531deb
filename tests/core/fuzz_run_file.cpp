// Mutation fuzzing of the .memscope reader through its public API only (RunFile::save writes a
// small valid run, RunFile::load reads the mutated copies), so it keeps working whatever the
// format inside. Every load must either return a consistent trace or throw RunFileError naming
// the file and saying what is wrong; nothing may crash, hang, throw anything else, or hold more
// heap than the file could justify.
//
//   --iterations N  (default 5000)    --seed S  (default 20260101)    (mutation_fuzzer.h)

#include "fuzz_trace.h"
#include "heap_meter.h"
#include "io/run_file.h"
#include "mutation_fuzzer.h"

#include <QtTest/QtTest>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>

using namespace memscope;
using fuzz::Bytes;

namespace {

Bytes readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const std::string& path, const Bytes& bytes) {
    std::remove(path.c_str());  // a fresh file: rewriting a truncated one makes ext4 flush
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

struct Stats {
    int64_t loaded = 0;
    int64_t refused = 0;
    double slowestMs = 0;
    int64_t worstPeak = 0;
    std::map<std::string, int64_t> reasons;
};

// Loads PATH (holding INPUT); "" or what went wrong.
std::string exercise(const std::string& path, const Bytes& input, Stats& stats) {
    writeAll(path, input);
    const int64_t base = fuzz::heapLive();
    fuzz::resetHeapPeak();
    const fuzz::Stopwatch watch;
    std::string problem;
    try {
        const Trace t = RunFile::load(path);
        ++stats.loaded;
        if (!t.events.checkLengths().empty()) {
            problem = "loaded with inconsistent columns: " + t.events.checkLengths();
        }
        for (size_t i = 0; i < t.events.count() && problem.empty(); ++i) {
            if (t.events.stack[i] >= t.stacks.nodeCount()) {
                problem = "loaded with a stack id outside the table";
            }
        }
    } catch (const RunFileError& e) {
        ++stats.refused;
        problem = fuzz::fileErrorProblem(path, e.path(), e.what(), e.reason());
        ++stats.reasons[fuzz::reasonKey(e.reason(), 40)];
    } catch (const std::exception& e) {
        problem = std::string("unexpected exception: ") + e.what();
    }
    const double ms = watch.cpuMs();
    stats.slowestMs = std::max(stats.slowestMs, ms);
    const int64_t peak = fuzz::heapPeak() - base;
    stats.worstPeak = std::max(stats.worstPeak, peak);
    if (problem.empty()) {
        problem = fuzz::costProblem(ms, peak, input.size());
    }
    return problem;
}

}  // namespace

class FuzzRunFile : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_seedPath = m_dir.filePath("seed.memscope").toStdString();
        m_path = m_dir.filePath("fuzz.memscope").toStdString();
        RunFile::save(fuzz::fuzzTrace(), m_seedPath);
        m_seed = readAll(m_seedPath);
        QVERIFY(m_seed.size() > 100);
    }

    void seedLoads() {
        Stats stats;
        const std::string problem = exercise(m_path, m_seed, stats);
        QVERIFY2(problem.empty(), problem.c_str());
        QCOMPARE(stats.loaded, int64_t(1));
        const Trace t = RunFile::load(m_path);
        QCOMPARE(t.events.count(), size_t(24));
        QCOMPARE(t.spans.size(), size_t(6));
    }

    void emptyAndForeignFilesAreRefused() {
        Stats stats;
        for (const Bytes& b : {Bytes{}, Bytes{'M'}, Bytes(m_seed.begin(), m_seed.begin() + 8),
                               Bytes(4096, 0xff), Bytes(m_seed.begin() + 1, m_seed.end())}) {
            const std::string problem = exercise(m_path, b, stats);
            QVERIFY2(problem.empty(), problem.c_str());
        }
        QCOMPARE(stats.refused, int64_t(5));
    }

    void mutations() {
        const auto settings = fuzz::Settings::get(5000, 20260101);
        // Offsets of the preamble's version and header length (format 1); in another format
        // they are just two more places to corrupt.
        const std::vector<size_t> lengthFields = {8, 12};
        fuzz::Mutator mutator(settings.seed,
                              {0x00, 0x01, 0x7f, 0x80, 0xff, 0x18, 0x19, 0x1a, 0x1b, 0x40,
                               0x58, 0x59, 0x5a, 0x5b, 0x60, 0x78, 0x7a, 0x7b, 0x80, 0x9b,
                               0xa0, 0xbb, 0xf4, 0xf6, 0xfb, 0xff, 0x28, 0xb5, 0x2f, 0xfd});
        Stats stats;
        const fuzz::Stopwatch watch;
        fuzz::Progress progress("run file", settings);
        for (int64_t it = 0; it < settings.iterations; ++it) {
            progress.tick(it);
            const Bytes b = mutator.mutated(m_seed, lengthFields);
            const std::string problem = exercise(m_path, b, stats);
            if (!problem.empty()) {
                QFAIL(qPrintable(QString("iteration %1 (seed %2): %3\ninput: %4")
                                     .arg(it)
                                     .arg(settings.seed)
                                     .arg(QString::fromStdString(problem))
                                     .arg(QString::fromStdString(fuzz::hex(b)))));
            }
        }
        qInfo(
            "%lld mutations of a %zu-byte run file in %.2f s: %lld loaded, %lld refused; "
            "slowest %.2f ms; peak heap %lld bytes",
            static_cast<long long>(settings.iterations), m_seed.size(), watch.seconds(),
            static_cast<long long>(stats.loaded), static_cast<long long>(stats.refused),
            stats.slowestMs, static_cast<long long>(stats.worstPeak));
        if (settings.verbose) {
            for (const auto& [reason, count] : stats.reasons) {
                qInfo("%8lld  %s", static_cast<long long>(count), reason.c_str());
            }
        }
        QVERIFY(stats.refused > 0);
    }

  private:
    QTemporaryDir m_dir;
    std::string m_seedPath;
    std::string m_path;
    Bytes m_seed;
};

MEMSCOPE_FUZZ_MAIN(FuzzRunFile)
#include "fuzz_run_file.moc"
