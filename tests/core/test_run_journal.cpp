// The recording journal: a run streamed to it and recovered gives the trace the finished run
// has; torn, corrupt and foreign files are cut or refused with a message naming the file.

#include "capture/recording_session.h"
#include "fuzz_trace.h"
#include "io/cbor_pieces.h"
#include "io/column_codec.h"
#include "io/crc32.h"
#include "io/journal_reader.h"
#include "io/journal_recovery.h"
#include "io/run_file.h"
#include "io/run_file_error.h"
#include "io/run_journal.h"
#include "model/input_error.h"
#include "tiny_options.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <random>
#include <thread>

using namespace memscope;

namespace {

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void writeAll(const std::string& path, const std::string& data) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << data;
}

void appendAll(const std::string& path, const std::string& data) {
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out << data;
}

// The CRC bit by bit, as the standard defines it: what the sliced tables and the SSE4.2
// instruction must agree with (0xEDB88320: CRC-32, 0x82F63B78: CRC-32C).
uint32_t crcBitwise(const uint8_t* p, size_t n, uint32_t polynomial = 0xEDB88320u) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k) {
            c = (c & 1) ? polynomial ^ (c >> 1) : c >> 1;
        }
    }
    return ~c;
}

// `crc` (crc32, crc32c, ...) against crcBitwise with `polynomial` on random bytes.
void checkAgainstDefinition(uint32_t (*crc)(uint32_t, const void*, size_t), uint32_t polynomial,
                            unsigned seed) {
    std::mt19937 random(seed);
    std::vector<uint8_t> data(300);
    for (auto& b : data) {
        b = static_cast<uint8_t>(random());
    }
    for (size_t offset = 0; offset < 8; ++offset) {
        for (size_t n = 0; n + offset <= data.size(); n += (n < 40 ? 1 : 37)) {
            const uint8_t* p = data.data() + offset;
            const uint32_t expected = crcBitwise(p, n, polynomial);
            QCOMPARE(crc(0, p, n), expected);
            const size_t cut = n / 3;
            QCOMPARE(crc(crc(0, p, cut), p + cut, n - cut), expected);
        }
    }
}

uint32_t getU32(const std::string& data, size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        v |= uint32_t(uint8_t(data[at + size_t(i)])) << (8 * i);
    }
    return v;
}

void putU32(std::string& data, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) {
        data[at + size_t(i)] = char((v >> (8 * i)) & 0xFF);
    }
}

// A chunk around `payload`, checksummed for a journal of `version`.
std::string chunkOf(const std::vector<uint8_t>& payload, uint32_t version) {
    std::string chunk(RunJournal::kChunkMagic, 4);
    chunk.resize(RunJournal::kChunkHeaderSize);
    putU32(chunk, 4, uint32_t(payload.size()));
    putU32(chunk, 8, RunJournal::checksum(version, payload.data(), payload.size()));
    chunk.append(payload.begin(), payload.end());
    return chunk;
}

// The size of the file header and first chunk of `journal`.
size_t throughFirstChunk(const std::string& journal) {
    return RunJournal::kFileHeaderSize + RunJournal::kChunkHeaderSize +
           getU32(journal, RunJournal::kFileHeaderSize + 4);
}

// Every event and span column, the stack table, phases, steps and operators of `t` equal those
// of `finished`.
void compareWithFinished(const Trace& t, const Trace& finished) {
    QCOMPARE(t.events.count(), finished.events.count());
    QVERIFY(t.events.time_ns == finished.events.time_ns);
    QVERIFY(t.events.addr == finished.events.addr);
    QVERIFY(t.events.size == finished.events.size);
    QVERIFY(t.events.allocated == finished.events.allocated);
    QVERIFY(t.events.reserved == finished.events.reserved);
    QVERIFY(t.events.stack == finished.events.stack);
    QVERIFY(t.events.step == finished.events.step);
    QVERIFY(t.events.kind == finished.events.kind);
    QVERIFY(t.events.phase == finished.events.phase);
    QVERIFY(t.events.thread == finished.events.thread);
    QVERIFY(t.events.device == finished.events.device);
    QVERIFY(t.stacks.parents() == finished.stacks.parents());
    QVERIFY(t.stacks.nodeFrames() == finished.stacks.nodeFrames());
    QCOMPARE(t.stacks.frameCount(), finished.stacks.frameCount());
    QCOMPARE(t.spans.size(), finished.spans.size());
    for (size_t i = 0; i < t.spans.size(); ++i) {
        const Span& a = t.spans[i];
        const Span& b = finished.spans[i];
        QVERIFY(a.begin_ns == b.begin_ns && a.end_ns == b.end_ns && a.stack == b.stack &&
                a.thread == b.thread && a.shapes == b.shapes);
    }
    QCOMPARE(t.phases.size(), finished.phases.size());
    for (size_t i = 0; i < t.phases.size(); ++i) {
        QCOMPARE(t.phases[i].end_ns, finished.phases[i].end_ns);
    }
    QCOMPARE(t.steps.size(), finished.steps.size());
    QCOMPARE(t.operators.size(), finished.operators.size());
    QCOMPARE(t.allocations().size(), finished.allocations().size());
    QVERIFY(t.meta.config == finished.meta.config);
}

}  // namespace

class TestRunJournal : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::string m_journal;
    Trace m_finished;

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_journal = m_dir.filePath("run.memscope.journal").toStdString();
        auto options = tinyTrainOptions();
        options.num_steps = 4;
        RecordingSession session(options);
        session.setJournal(m_journal);
        session.start();
        while (session.running()) {
            session.poll();
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        session.finish();
        QVERIFY(session.journal() != nullptr);
        QVERIFY(session.journal()->chunks() > 2);
        QCOMPARE(session.journal()->eventsSynced(), int64_t(session.trace().events.count()));
        m_finished = session.trace();
        // Kept until the owner says the run file is written.
        QVERIFY(QFile::exists(QString::fromStdString(m_journal)));
    }

    void pathsPairRunAndJournal() {
        QVERIFY(RunJournal::pathFor("a/run.memscope") == "a/run.memscope.journal");
        QVERIFY(RunJournal::runPathFor("a/run.memscope.journal") == "a/run.memscope");
        QVERIFY(!RunJournal::isJournalPath("a/run.memscope"));
        // the check values of CRC-32 (version 1) and CRC-32C (version 2 on)
        QCOMPARE(RunJournal::checksum(1, "123456789", 9), uint32_t(0xCBF43926));
        QCOMPARE(RunJournal::checksum(2, "123456789", 9), uint32_t(0xE3069283));
        QCOMPARE(RunJournal::kVersion, uint32_t(3));
        QCOMPARE(RunJournal::writableVersions(), (std::vector<uint32_t>{1, 2, 3}));
    }

    // Slicing by eight (CRC-32, CRC-32C) and the SSE4.2 instruction (CRC-32C, where the
    // processor has it) agree with the definition at every length and alignment (the tail
    // loop, the 8-byte loop, both), and continue across pieces as zlib's crc32 does.
    void crcsMatchTheDefinition() {
        checkAgainstDefinition(crc32, 0xEDB88320u, 7);
        checkAgainstDefinition(crc32c, 0x82F63B78u, 11);
        checkAgainstDefinition(crc32cPortable, 0x82F63B78u, 11);
        qInfo("CRC-32C in hardware (SSE4.2): %s", crc32cInHardware() ? "yes" : "no");
    }

    // CborPieces writes what nlohmann::json::to_cbor writes for the same value, at every head
    // length (the journal's chunks must stay readable by json::from_cbor), and borrowed bytes
    // are written from the caller's memory.
    void cborPiecesEncodeAsTheLibraryDoes() {
        using json = nlohmann::json;
        const std::vector<uint64_t> numbers{
            0, 23, 24, 255, 256, 65535, 65536, 0xFFFFFFFFull, 1ull << 32, 1ull << 40, UINT64_MAX};
        std::vector<std::vector<uint8_t>> blobs;
        for (const size_t n :
             {size_t(0), size_t(1), size_t(23), size_t(24), size_t(300), size_t(70000)}) {
            std::vector<uint8_t> blob(n);
            for (size_t i = 0; i < n; ++i) {
                blob[i] = static_cast<uint8_t>(i * 31 + 7);
            }
            blobs.push_back(std::move(blob));
        }
        const std::string long_key(300, 'k');
        json expected = json::object();
        CborPieces pieces;
        // Keys in the library's (sorted) order, so that the bytes can be compared whole.
        pieces.mapHead(5);
        pieces.text("a_numbers");
        pieces.arrayHead(numbers.size());
        for (const uint64_t n : numbers) {
            pieces.unsignedInt(n);
            expected["a_numbers"].push_back(n);
        }
        pieces.text("b_blobs");
        pieces.arrayHead(blobs.size());
        for (const auto& blob : blobs) {
            pieces.borrowedBytes(blob.data(), blob.size());
            expected["b_blobs"].push_back(json::binary(blob));
        }
        pieces.text("c_value");
        const json value = {{"name", "aten::mm"}, {"line", -3}, {"x", 1.5}, {"list", {1, "two"}}};
        pieces.value(value);
        expected["c_value"] = value;
        pieces.text("e");
        pieces.mapHead(0);
        expected["e"] = json::object();
        pieces.text(long_key);
        pieces.text("");
        expected[long_key] = "";

        const std::vector<uint8_t> library = json::to_cbor(expected);
        const std::vector<uint8_t> ours = pieces.bytes();
        QCOMPARE(ours.size(), pieces.size());
        QVERIFY(ours == library);
        QVERIFY(json::from_cbor(ours) == expected);
        QCOMPARE(pieces.checksum(crc32), crc32(0, library.data(), library.size()));
        QCOMPARE(pieces.checksum(crc32c), crc32c(0, library.data(), library.size()));
        // The iovecs hold the same bytes after the prefix, the blobs not copied.
        const char prefix[] = "HEAD";
        const auto vecs = pieces.iovecs(prefix, 4);
        std::vector<uint8_t> joined;
        bool borrowed = false;
        for (const iovec& v : vecs) {
            const auto* p = static_cast<const uint8_t*>(v.iov_base);
            joined.insert(joined.end(), p, p + v.iov_len);
            borrowed = borrowed || v.iov_base == blobs.back().data();
        }
        QVERIFY(borrowed);
        QVERIFY(std::equal(joined.begin(), joined.begin() + 4, prefix));
        QVERIFY(std::vector<uint8_t>(joined.begin() + 4, joined.end()) == library);
        pieces.clear();
        QCOMPARE(pieces.size(), size_t(0));
        QVERIFY(pieces.iovecs().empty());
    }

    void recoveredTraceIsTheFinishedOne() {
        const auto r = JournalRecovery::recover(m_journal);
        QCOMPARE(r.bytes_dropped, int64_t(0));
        QVERIFY(r.dropped_reason.empty());
        const Trace& t = r.trace;
        compareWithFinished(t, m_finished);
        QCOMPARE(r.steps, int64_t(m_finished.steps.size()));
        QVERIFY(t.summary.value("recovered", false));
        // and it saves and loads as a run file
        const std::string run = m_dir.filePath("recovered.memscope").toStdString();
        RunFile::save(t, run);
        QCOMPARE(RunFile::load(run).events.count(), m_finished.events.count());
    }

    // A journal of each version the writer can write (1: CRC-32 checksums, raw columns; 2:
    // CRC-32C; 3: encoded columns), written in two chunks, recovers the finished run: readers
    // still read what earlier Memscopes wrote. Version 3 is the smallest.
    void everyVersionRecoversTheSameRun() {
        std::vector<size_t> sizes;
        for (const uint32_t version : RunJournal::writableVersions()) {
            const std::string path =
                m_dir.filePath(QString("v%1.journal").arg(version)).toStdString();
            {
                RunJournal journal(path, version);
                journal.append(fuzz::prefixOf(m_finished, m_finished.events.count() / 2,
                                              m_finished.spans.size() / 3));
                journal.append(m_finished, true);
                journal.sync();
                QCOMPARE(journal.chunks(), int64_t(2));
            }
            QCOMPARE(uint32_t(getU32(readAll(path), 8)), version);
            const auto r = JournalRecovery::recover(path);
            QVERIFY2(r.dropped_reason.empty(), r.dropped_reason.c_str());
            QCOMPARE(r.chunks, int64_t(2));
            compareWithFinished(r.trace, m_finished);
            sizes.push_back(readAll(path).size());
        }
        QVERIFY2(sizes[2] * 2 < sizes[1], "version 3 is not half the size of version 2");
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 RunJournal(m_dir.filePath("v4.journal").toStdString(), 4));
    }

    // Version 1 bytes labelled version 2 fail the first chunk's checksum (nothing to recover),
    // and version 0 is refused, each with a message naming the file.
    void mislabeledVersionsAreRefused() {
        const std::string v1 = m_dir.filePath("written-as-v1.journal").toStdString();
        {
            RunJournal journal(v1, 1);
            journal.append(m_finished, true);
        }
        std::string mislabeled = readAll(v1);
        putU32(mislabeled, 8, 2);
        const std::string bad = m_dir.filePath("mislabeled.journal").toStdString();
        writeAll(bad, mislabeled);
        try {
            (void)JournalRecovery::recover(bad);
            QFAIL("a journal whose every chunk fails its checksum was recovered");
        } catch (const RunFileError& e) {
            QVERIFY2(std::string(e.what()).find("fails its checksum") != std::string::npos,
                     e.what());
        }

        putU32(mislabeled, 8, 0);
        writeAll(bad, mislabeled);
        try {
            (void)JournalRecovery::recover(bad);
            QFAIL("a version 0 journal was read");
        } catch (const RunFileError& e) {
            QVERIFY2(std::string(e.what()).find("version 0") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("mislabeled.journal") != std::string::npos,
                     e.what());
        }
    }

    // A version 3 chunk whose checksum matches but whose encoded columns do not hold what its
    // count says (damage the checksum missed, or a faulty writer) ends the recovery there, with
    // a message naming the column; a count far beyond the bytes is refused before anything is
    // allocated for it.
    void undecodableColumnsEndTheRecoveryThere() {
        const std::string data = readAll(m_journal);
        const std::string first = data.substr(0, throughFirstChunk(data));
        const std::string head_only = m_dir.filePath("head.journal").toStdString();
        writeAll(head_only, first);
        const auto kept = JournalRecovery::recover(head_only);
        QVERIFY2(kept.dropped_reason.empty(), kept.dropped_reason.c_str());

        const auto damaged = [&](const nlohmann::json& events, const std::string& expected) {
            nlohmann::json chunk = {{"event_first", kept.events}, {"events", events}};
            const std::string bad = m_dir.filePath("undecodable.journal").toStdString();
            writeAll(bad, first + chunkOf(nlohmann::json::to_cbor(chunk), RunJournal::kVersion));
            const auto r = JournalRecovery::recover(bad);
            QCOMPARE(r.events, kept.events);
            QCOMPARE(r.chunks, int64_t(1));
            QVERIFY2(r.dropped_reason.find("chunk 2") != std::string::npos &&
                         r.dropped_reason.find(expected) != std::string::npos,
                     r.dropped_reason.c_str());
        };
        // Five events, each column one byte short of what five delta varints take.
        nlohmann::json events = {{"count", 5}};
        for (const char* column : {"time_ns", "addr", "size", "allocated", "reserved", "stack",
                                   "step", "kind", "phase", "thread", "device"}) {
            events[column] = nlohmann::json::binary(std::vector<uint8_t>(4, 0));
        }
        damaged(events, "'time_ns' does not hold 5 delta_varint values");
        // A varint that never ends (its last byte has the continuation bit).
        for (auto& [name, column] : events.items()) {
            if (name != "count") {
                column = nlohmann::json::binary(std::vector<uint8_t>(5, 0));
            }
        }
        events["addr"] = nlohmann::json::binary(std::vector<uint8_t>{0, 0, 0, 0, 0x80});
        damaged(events, "'addr' does not hold 5 delta_varint values");
        events["addr"] = nlohmann::json::binary(std::vector<uint8_t>(5, 0));
        // Raw columns must be exactly count bytes.
        events["kind"] = nlohmann::json::binary(std::vector<uint8_t>(6, 0));
        damaged(events, "'kind' does not hold 5 raw values");
        events["kind"] = nlohmann::json::binary(std::vector<uint8_t>(5, 0));
        // Sizes no allocator hands out (damage that still decodes).
        std::vector<uint8_t> huge;
        const int64_t sizes[] = {0, int64_t(1) << 60, 0, 0, 0};
        encodeColumn(sizes, 5, RunJournal::eventEncoding("size"), huge);
        events["size"] = nlohmann::json::binary(huge);
        damaged(events, "event 1 has a size, allocated or reserved count beyond 256 TiB");
        events["size"] = nlohmann::json::binary(std::vector<uint8_t>(5, 0));
        // A count of 2^60 with five bytes: refused, not allocated.
        events["count"] = uint64_t(1) << 60;
        damaged(events, "does not hold 1152921504606846976");
        events["count"] = 5;
        events.erase("count");
        damaged(events, "'events' has no 'count'");
    }

    void tornLastChunkIsDroppedAndSaid() {
        const std::string data = readAll(m_journal);
        const std::string torn = m_dir.filePath("torn.journal").toStdString();
        writeAll(torn, data.substr(0, data.size() - 3));
        const auto r = JournalRecovery::recover(torn);
        QVERIFY(r.bytes_dropped > 0);
        QVERIFY2(r.dropped_reason.find("cut short") != std::string::npos, r.dropped_reason.c_str());
        QVERIFY(r.events <= int64_t(m_finished.events.count()));
        QVERIFY2(r.describe().find("recovered ") == 0, r.describe().c_str());
    }

    void corruptChunkEndsTheRecoveryThere() {
        std::string data = readAll(m_journal);
        // Flip a byte in the middle of the file: the chunk holding it fails its checksum, and
        // nothing after it is taken (it would not continue what was kept).
        data[data.size() / 2] ^= 0x5A;
        const std::string bad = m_dir.filePath("bad.journal").toStdString();
        writeAll(bad, data);
        const auto r = JournalRecovery::recover(bad);
        QVERIFY2(!r.dropped_reason.empty(), r.dropped_reason.c_str());
        QVERIFY(r.events < int64_t(m_finished.events.count()));
        QVERIFY(r.bytes_dropped > 0);
    }

    // A journal read while it grows: each poll takes the chunks complete by then, waits for the
    // one cut short, and never reads a byte twice.
    void readerFollowsAGrowingJournal() {
        const std::string data = readAll(m_journal);
        const std::string growing = m_dir.filePath("growing.journal").toStdString();
        JournalReader reader(growing);
        QCOMPARE(reader.poll(), int64_t(0));  // not there yet
        QVERIFY(!reader.hasRun());
        // Pieces that cut through the file header, chunk headers and payloads.
        const std::vector<size_t> cuts{5,
                                       RunJournal::kFileHeaderSize + 7,
                                       data.size() / 3,
                                       data.size() / 2 + 1,
                                       data.size() - 2,
                                       data.size()};
        size_t written = 0;
        int64_t events = 0;
        int64_t chunks = 0;
        int64_t chunks_before_last = -1;
        for (const size_t cut : cuts) {
            appendAll(growing, data.substr(written, cut - written));
            written = cut;
            chunks += reader.poll();
            QCOMPARE(reader.bytesRead(), int64_t(cut));
            QCOMPARE(reader.chunks(), chunks);
            QVERIFY(!reader.failed());
            QVERIFY(reader.eventCount() >= events);
            events = reader.eventCount();
            if (cut == data.size() / 3) {
                QVERIFY(reader.hasRun());
                QVERIFY(events > 0);
                // What was read so far shows as a trace, and the reader goes on after it.
                const Trace partial = reader.trace();
                QCOMPARE(int64_t(partial.events.count()), events);
                QVERIFY(partial.meta.config == m_finished.meta.config);
                // Bytes already read are never read again: spoil the file's start in place.
                std::fstream f(growing, std::ios::binary | std::ios::in | std::ios::out);
                f.seekp(0);
                f.write("XXXXXXXXXXXXXXXX", 16);
            }
            if (cut == data.size() - 2) {
                QVERIFY2(reader.stopReason().find("cut short") != std::string::npos,
                         reader.stopReason().c_str());
                QVERIFY(events <= int64_t(m_finished.events.count()));
                chunks_before_last = reader.chunks();
            }
        }
        QCOMPARE(reader.chunks(), chunks_before_last + 1);  // the last one, once it was whole
        QVERIFY2(reader.stopReason().empty(), reader.stopReason().c_str());
        QCOMPARE(reader.bytesKept(), int64_t(data.size()));
        QCOMPARE(reader.poll(), int64_t(0));
        QCOMPARE(reader.steps().size(), m_finished.steps.size());
        QCOMPARE(reader.peakAllocated(), *std::max_element(m_finished.events.allocated.begin(),
                                                           m_finished.events.allocated.end()));
        const Trace t = reader.trace();
        QCOMPARE(t.events.count(), m_finished.events.count());
        QVERIFY(t.events.allocated == m_finished.events.allocated);
        QVERIFY(t.events.stack == m_finished.events.stack);
        QVERIFY(t.stacks.parents() == m_finished.stacks.parents());
        QCOMPARE(t.spans.size(), m_finished.spans.size());
        QCOMPARE(t.allocations().size(), m_finished.allocations().size());
        const Trace taken = reader.takeTrace();
        QCOMPARE(taken.events.count(), m_finished.events.count());
        QCOMPARE(reader.eventCount(), int64_t(0));
    }

    void readerStopsForGoodAtACorruptChunk() {
        std::string data = readAll(m_journal);
        data[data.size() / 2] ^= 0x5A;
        const std::string bad = m_dir.filePath("bad-growing.journal").toStdString();
        writeAll(bad, data.substr(0, data.size() / 4));
        JournalReader reader(bad);
        QVERIFY(reader.poll() > 0);
        QVERIFY(!reader.failed());
        appendAll(bad, data.substr(data.size() / 4));
        reader.poll();
        QVERIFY(reader.failed());
        QVERIFY(!reader.stopReason().empty());
        const int64_t events = reader.eventCount();
        QVERIFY(events < int64_t(m_finished.events.count()));
        appendAll(bad, data.substr(0, 100));
        QCOMPARE(reader.poll(), int64_t(0));
        QCOMPARE(reader.eventCount(), events);

        const std::string junk = m_dir.filePath("junk-growing.journal").toStdString();
        writeAll(junk, "MSJ0");
        JournalReader foreign(junk);
        QVERIFY_THROWS_EXCEPTION(RunFileError, foreign.poll());
    }

    void foreignFilesAreRefusedNamingThem() {
        const std::string junk = m_dir.filePath("junk.journal").toStdString();
        writeAll(junk, "definitely not a journal");
        try {
            JournalRecovery::recover(junk);
            QFAIL("no error");
        } catch (const RunFileError& e) {
            QVERIFY(e.path() == junk);
        }
        const std::string empty = m_dir.filePath("empty.journal").toStdString();
        writeAll(empty, readAll(m_journal).substr(0, RunJournal::kFileHeaderSize));
        QVERIFY_THROWS_EXCEPTION(RunFileError, JournalRecovery::recover(empty));
    }

    void findsJournalsInADirectory() {
        const auto found = JournalRecovery::findJournals(m_dir.path().toStdString());
        QVERIFY(std::find(found.begin(), found.end(), m_journal) != found.end());
        QVERIFY(JournalRecovery::findJournals(m_dir.filePath("nope").toStdString()).empty());
    }
};

QTEST_GUILESS_MAIN(TestRunJournal)
#include "test_run_journal.moc"
