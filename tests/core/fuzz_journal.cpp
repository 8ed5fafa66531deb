// Mutation fuzzing of the recording journal's reader (io/journal_reader.h) through
// JournalRecovery::recover, as `memscope-cli recover` and the GUI call it. The seeds are journals
// of every version the writer can write, each a small run in three chunks. Half the inputs are
// the file's bytes mutated (framing, headers, checksums: mostly refused at the checksum); the
// other half mutate one chunk's payload and then fix its length and checksum, so that the CBOR
// map and the encoded columns behind the checksum are what gets exercised. Every input must
// either recover a consistent trace or throw RunFileError naming the file; nothing may crash,
// hang, throw anything else, or hold more heap than the file could justify.
//
//   --iterations N  (default 4000)    --seed S  (default 20261126)    (mutation_fuzzer.h)

#include "fuzz_trace.h"
#include "heap_meter.h"
#include "io/journal_recovery.h"
#include "io/run_file_error.h"
#include "io/run_journal.h"
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
    std::remove(path.c_str());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

uint32_t getU32(const Bytes& b, size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        v |= uint32_t(b[at + size_t(i)]) << (8 * i);
    }
    return v;
}

void putU32(Bytes& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) {
        b[at + size_t(i)] = uint8_t((v >> (8 * i)) & 0xFF);
    }
}

// Where each chunk of a well-formed journal starts.
std::vector<size_t> chunkOffsets(const Bytes& journal) {
    std::vector<size_t> offsets;
    size_t pos = RunJournal::kFileHeaderSize;
    while (pos + RunJournal::kChunkHeaderSize <= journal.size()) {
        offsets.push_back(pos);
        pos += RunJournal::kChunkHeaderSize + getU32(journal, pos + 4);
    }
    return offsets;
}

// `journal` with the payload of the chunk at `offset` mutated, its length and checksum fixed.
Bytes withMutatedPayload(const Bytes& journal, size_t offset, fuzz::Mutator& mutator) {
    const uint32_t version = getU32(journal, 8);
    const size_t length = getU32(journal, offset + 4);
    const auto payload_begin =
        journal.begin() + std::ptrdiff_t(offset + RunJournal::kChunkHeaderSize);
    const Bytes payload(payload_begin, payload_begin + std::ptrdiff_t(length));
    const Bytes mutated = mutator.mutated(payload, {});
    Bytes out(journal.begin(), journal.begin() + std::ptrdiff_t(offset));
    Bytes header(RunJournal::kChunkHeaderSize);
    std::memcpy(header.data(), RunJournal::kChunkMagic, 4);
    putU32(header, 4, uint32_t(mutated.size()));
    putU32(header, 8, RunJournal::checksum(version, mutated.data(), mutated.size()));
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), mutated.begin(), mutated.end());
    out.insert(out.end(), payload_begin + std::ptrdiff_t(length), journal.end());
    return out;
}

struct Stats {
    int64_t recovered = 0;
    int64_t refused = 0;
    int64_t cut = 0;  // recovered, with chunks dropped
    double slowestMs = 0;
    int64_t worstPeak = 0;
    std::map<std::string, int64_t> reasons;
};

// Recovers PATH (holding INPUT); "" or what went wrong.
std::string exercise(const std::string& path, const Bytes& input, Stats& stats) {
    writeAll(path, input);
    const int64_t base = fuzz::heapLive();
    fuzz::resetHeapPeak();
    const fuzz::Stopwatch watch;
    std::string problem;
    try {
        const auto r = JournalRecovery::recover(path);
        ++stats.recovered;
        const Trace& t = r.trace;
        if (!r.dropped_reason.empty()) {
            ++stats.cut;
            ++stats.reasons["dropped: " + fuzz::reasonKey(r.dropped_reason, 48)];
        }
        if (!t.events.checkLengths().empty()) {
            problem = "recovered with inconsistent columns: " + t.events.checkLengths();
        }
        for (size_t i = 0; i < t.events.count() && problem.empty(); ++i) {
            if (t.events.stack[i] >= t.stacks.nodeCount()) {
                problem = "recovered an event with a stack id outside the table";
            }
        }
        for (const Span& s : t.spans) {
            if (problem.empty() &&
                (s.stack >= t.stacks.nodeCount() || s.shapes >= t.shape_strings.size())) {
                problem = "recovered a span naming a stack node or shape that does not exist";
            }
        }
        if (problem.empty() && r.events != int64_t(t.events.count())) {
            problem = "the result counts " + std::to_string(r.events) + " events, the trace has " +
                      std::to_string(t.events.count());
        }
    } catch (const RunFileError& e) {
        ++stats.refused;
        problem = fuzz::fileErrorProblem(path, e.path(), e.what(), e.reason());
        ++stats.reasons["refused: " + fuzz::reasonKey(e.reason(), 48)];
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

class FuzzJournal : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath("fuzz.memscope.journal").toStdString();
        const Trace trace = fuzz::fuzzTrace();
        for (const uint32_t version : RunJournal::writableVersions()) {
            const std::string path =
                m_dir.filePath(QString("seed-v%1.journal").arg(version)).toStdString();
            {
                RunJournal journal(path, version);
                journal.append(fuzz::prefixOf(trace, 8, 2));
                journal.append(fuzz::prefixOf(trace, 16, 4));
                journal.append(trace, true);
            }
            m_seeds.push_back(readAll(path));
            QCOMPARE(chunkOffsets(m_seeds.back()).size(), size_t(3));
        }
    }

    void seedsRecover() {
        for (const Bytes& seed : m_seeds) {
            Stats stats;
            const std::string problem = exercise(m_path, seed, stats);
            QVERIFY2(problem.empty(), problem.c_str());
            QCOMPARE(stats.recovered, int64_t(1));
            QCOMPARE(stats.cut, int64_t(0));
            const auto r = JournalRecovery::recover(m_path);
            QCOMPARE(r.trace.events.count(), size_t(24));
            QCOMPARE(r.trace.spans.size(), size_t(6));
        }
    }

    void mutations() {
        const auto settings = fuzz::Settings::get(4000, 20261126);
        fuzz::Mutator mutator(settings.seed, {0x00, 0x01, 0x03, 0x7f, 0x80, 0xff, 0x18, 0x19, 0x1a,
                                              0x1b, 0x40, 0x58, 0x59, 0x5a, 0x5b, 0x60, 0x78, 0x7a,
                                              0x7b, 0x9b, 0xa0, 0xbb, 0xf4, 0xf6, 0xfb});
        Stats stats;
        const fuzz::Stopwatch watch;
        fuzz::Progress progress("journal", settings);
        for (int64_t it = 0; it < settings.iterations; ++it) {
            progress.tick(it);
            const Bytes& seed = m_seeds[size_t(it) % m_seeds.size()];
            const std::vector<size_t> chunks = chunkOffsets(seed);
            Bytes b;
            if (mutator.chance(50)) {
                // The file as a whole: the version, the chunk lengths and checksums are the
                // fields worth corrupting.
                std::vector<size_t> fields = {8};
                for (const size_t c : chunks) {
                    fields.push_back(c + 4);
                    fields.push_back(c + 8);
                }
                b = mutator.mutated(seed, fields);
            } else {
                b = withMutatedPayload(seed, mutator.pickFrom(chunks), mutator);
            }
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
            "%lld mutations of journals of %zu versions in %.2f s: %lld recovered (%lld with "
            "chunks dropped), %lld refused; slowest %.2f ms; peak heap %lld bytes",
            static_cast<long long>(settings.iterations), m_seeds.size(), watch.seconds(),
            static_cast<long long>(stats.recovered), static_cast<long long>(stats.cut),
            static_cast<long long>(stats.refused), stats.slowestMs,
            static_cast<long long>(stats.worstPeak));
        if (settings.verbose) {
            for (const auto& [reason, count] : stats.reasons) {
                qInfo("%8lld  %s", static_cast<long long>(count), reason.c_str());
            }
        }
        QVERIFY(stats.refused > 0);
        QVERIFY(stats.cut > 0);
    }

  private:
    QTemporaryDir m_dir;
    std::string m_path;
    std::vector<Bytes> m_seeds;
};

MEMSCOPE_FUZZ_MAIN(FuzzJournal)
#include "fuzz_journal.moc"
