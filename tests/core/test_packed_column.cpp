// PackedColumn (trace/packed_column.h) against a std::vector of the same values: every width from
// 0 to 64 bits, signed and unsigned extremes, the unpacked tail, truncation, and the iterator
// that std::lower_bound runs over. And EntryList (interchange/entry_list.h), a snapshot's trace
// entries packed a chunk at a time on a second thread and read back in windows unpacked on it,
// against the entries pushed.

#include "interchange/entry_list.h"
#include "trace/packed_column.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <limits>
#include <random>
#include <stdexcept>

using namespace memscope;

namespace {

template <typename T>
void compareAll(const PackedColumn<T>& packed, const std::vector<T>& expected) {
    QCOMPARE(packed.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        if (packed[i] != expected[i]) {
            QFAIL(qPrintable(QStringLiteral("value %1: %2, expected %3")
                                 .arg(i)
                                 .arg(QString::number(packed[i]), QString::number(expected[i]))));
        }
    }
    QVERIFY(packed.toVector() == expected);
    // forEach over ranges that start and end inside blocks and in the tail.
    for (size_t from : {size_t(0), size_t(1), size_t(127), size_t(130), expected.size() / 2}) {
        for (size_t to : {from, from + 1, from + 200, expected.size()}) {
            to = std::min(to, expected.size());
            from = std::min(from, to);
            std::vector<T> seen;
            packed.forEach(from, to, [&](T v) { seen.push_back(v); });
            QVERIFY(seen == std::vector<T>(expected.begin() + std::ptrdiff_t(from),
                                           expected.begin() + std::ptrdiff_t(to)));
        }
    }
    if (!expected.empty()) {
        QCOMPARE(packed.front(), expected.front());
        QCOMPARE(packed.back(), expected.back());
    }
}

// Entries whose every field changes: wide addresses and sizes, rising times, and small fields
// that change now and then, as a trace's do.
std::vector<snapshot_detail::Entry> entriesOf(size_t n, uint32_t seed) {
    using snapshot_detail::Action;
    std::mt19937 rng(seed);
    std::vector<snapshot_detail::Entry> out(n);
    int64_t time = 1000;
    for (size_t i = 0; i < n; ++i) {
        snapshot_detail::Entry& e = out[i];
        e.addr = (uint64_t(rng()) << 20) + rng() % 4096;
        e.size = int64_t(rng() % (uint32_t(1) << 30)) - (i % 7 == 0 ? int64_t(1) << 40 : 0);
        time += rng() % 50;
        e.time_us = time;
        e.extra = i % 1000 == 0 ? rng() % 4 : 0;
        e.stack = rng() % 100000;
        e.action = static_cast<Action>(rng() % (unsigned(Action::Skip) + 1));
        e.flags = uint8_t(rng() % 32);  // kFolded is EntryList's to set
        e.category = int8_t(int(rng() % 12) - 1);
        e.pool = i % 5000 < 3 ? uint8_t(rng() % 3) : 0;
        e.slot = i % 3 == 0 ? AddressSlots::kNone : rng() % 50000;
    }
    return out;
}

void compareEntry(const snapshot_detail::Entry& got, const snapshot_detail::Entry& want, size_t i) {
    const bool same = got.addr == want.addr && got.size == want.size &&
                      got.time_us == want.time_us && got.extra == want.extra &&
                      got.stack == want.stack && got.action == want.action &&
                      got.flags == want.flags && got.category == want.category &&
                      got.pool == want.pool && got.slot == want.slot;
    if (!same) {
        QFAIL(qPrintable(QStringLiteral("entry %1 differs").arg(i)));
    }
}

template <typename T>
PackedColumn<T> packedOf(const std::vector<T>& values) {
    PackedColumn<T> out;
    for (const T v : values) {
        out.push_back(v);
    }
    return out;
}

}  // namespace

class TestPackedColumn : public QObject {
    Q_OBJECT

  private slots:
    void everyWidth() {
        // Blocks whose values span exactly 2^w - 1 above a base, for every w, both signs.
        std::mt19937_64 rng(7);
        for (unsigned w = 0; w <= 64; ++w) {
            const uint64_t span = w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
            std::vector<int64_t> s;
            std::vector<uint64_t> u;
            const int64_t base =
                w == 64 ? std::numeric_limits<int64_t>::min() : -int64_t(rng() % 1000);
            for (size_t k = 0; k < 3 * PackedColumn<int64_t>::kBlock + 17; ++k) {
                const uint64_t off =
                    k % 5 == 0 ? span
                    : k % 7 == 0
                        ? 0
                        : (span == 0 ? 0 : rng() % (span == ~uint64_t(0) ? span : span + 1));
                s.push_back(int64_t(uint64_t(base) + off));
                u.push_back(off);
            }
            compareAll(packedOf(s), s);
            compareAll(packedOf(u), u);
        }
    }

    void narrowTypes() {
        std::mt19937 rng(3);
        std::vector<int32_t> i32;
        std::vector<uint32_t> u32;
        std::vector<int16_t> i16;
        std::vector<uint8_t> u8;
        for (int k = 0; k < 1000; ++k) {
            i32.push_back(k % 9 == 0    ? std::numeric_limits<int32_t>::min()
                          : k % 11 == 0 ? std::numeric_limits<int32_t>::max()
                                        : int32_t(rng()));
            u32.push_back(k % 13 == 0 ? std::numeric_limits<uint32_t>::max() : uint32_t(k * 3));
            i16.push_back(int16_t(k % 2 ? -1 : 1));
            u8.push_back(uint8_t(k));
        }
        compareAll(packedOf(i32), i32);
        compareAll(packedOf(u32), u32);
        compareAll(packedOf(i16), i16);
        compareAll(packedOf(u8), u8);
    }

    void smallerThanTheValues() {
        // A running total of allocations: neighbours differ by a few MB at most.
        std::mt19937_64 rng(11);
        std::vector<int64_t> total;
        int64_t running = int64_t(40) << 30;
        for (int k = 0; k < 100000; ++k) {
            running += int64_t(rng() % (8 << 20)) - (4 << 20);
            total.push_back(running);
        }
        PackedColumn<int64_t> packed = packedOf(total);
        packed.shrink_to_fit();
        compareAll(packed, total);
        QVERIFY(packed.memoryBytes() < total.size() * sizeof(int64_t) / 2);
        // A constant column costs its headers only.
        PackedColumn<int64_t> constant = packedOf(std::vector<int64_t>(100000, 5));
        constant.shrink_to_fit();
        QVERIFY(constant.memoryBytes() < 100000 / 4);
    }

    void lowerBound() {
        std::vector<int64_t> sorted;
        for (int k = 0; k < 5000; ++k) {
            sorted.push_back(int64_t(k / 3) * 1000);
        }
        const PackedColumn<int64_t> packed = packedOf(sorted);
        for (int64_t t : {int64_t(-1), int64_t(0), int64_t(999), int64_t(1000), int64_t(777000),
                          int64_t(1666000), int64_t(5000000)}) {
            QCOMPARE(std::lower_bound(packed.begin(), packed.end(), t) - packed.begin(),
                     std::lower_bound(sorted.begin(), sorted.end(), t) - sorted.begin());
            QCOMPARE(std::upper_bound(packed.begin(), packed.end(), t) - packed.begin(),
                     std::upper_bound(sorted.begin(), sorted.end(), t) - sorted.begin());
        }
        const auto [lo, hi] = std::minmax_element(packed.begin() + 10, packed.begin() + 300);
        QCOMPARE(*lo, sorted[10]);
        QCOMPARE(*hi, sorted[299]);
    }

    void appendFromAnArray() {
        std::vector<int64_t> values;
        for (int k = 0; k < 1000; ++k) {
            values.push_back(int64_t(k % 37) * (k % 2 ? -1 : 1) * (int64_t(1) << (k % 50)));
        }
        for (size_t first : {size_t(0), size_t(1), size_t(128), size_t(200)}) {
            PackedColumn<int64_t> packed;
            packed.append(values.begin(), values.begin() + std::ptrdiff_t(first));
            packed.append(values.data() + first, values.size() - first);
            compareAll(packed, values);
        }
        // assign replaces what was there (a tail and packed blocks) and keeps no spare capacity.
        PackedColumn<int64_t> packed;
        for (int k = 0; k < 300; ++k) {
            packed.push_back(k);
        }
        packed.assign(values.data(), values.size());
        compareAll(packed, values);
        PackedColumn<int64_t> appended;
        appended.append(values.data(), values.size());
        appended.shrink_to_fit();
        QCOMPARE(packed.memoryBytes(), appended.memoryBytes());
        packed.assign(values.data(), 5);
        compareAll(packed, std::vector<int64_t>(values.begin(), values.begin() + 5));
    }

    // A PackedReader reads what the column holds, in order, backwards and at random, across
    // blocks and into the unpacked tail.
    void readerReadsTheColumn() {
        std::mt19937 rng(11);
        for (size_t n : {size_t(1), size_t(127), size_t(128), size_t(129), size_t(1000)}) {
            std::vector<int32_t> values;
            for (size_t k = 0; k < n; ++k) {
                values.push_back(int32_t(rng() % 2000) - 1000 + (k % 300 == 0 ? 1 << 30 : 0));
            }
            const PackedColumn<int32_t> packed = packedOf(values);
            PackedReader forward(packed);
            for (size_t i = 0; i < n; ++i) {
                QCOMPARE(forward[i], values[i]);
            }
            PackedReader backward(packed);
            for (size_t i = n; i-- > 0;) {
                QCOMPARE(backward[i], values[i]);
            }
            PackedReader random(packed);
            for (int k = 0; k < 2000; ++k) {
                const size_t i = rng() % n;
                QCOMPARE(random[i], values[i]);
            }
        }
    }

    void truncateAndAppend() {
        std::vector<int64_t> values;
        for (int k = 0; k < 1000; ++k) {
            values.push_back(int64_t(k) * k - 5000);
        }
        for (size_t keep : {size_t(0), size_t(1), size_t(127), size_t(128), size_t(129),
                            size_t(500), size_t(999), size_t(1000), size_t(2000)}) {
            PackedColumn<int64_t> packed = packedOf(values);
            packed.truncate(keep);
            std::vector<int64_t> expected(values.begin(),
                                          values.begin() + std::min(keep, values.size()));
            compareAll(packed, expected);
            for (int k = 0; k < 300; ++k) {
                packed.push_back(-k);
                expected.push_back(-k);
            }
            compareAll(packed, expected);
        }
        PackedColumn<int64_t> cleared = packedOf(values);
        cleared.clear();
        QVERIFY(cleared.empty());
        cleared.push_back(3);
        compareAll(cleared, std::vector<int64_t>{3});
        QVERIFY(packedOf(values) == packedOf(values));
        QVERIFY(packedOf(values) != cleared);
    }

    // Chunks of 1,024 and of 128 entries (packed on the second thread as each fills), windows of
    // 64K read across chunk boundaries, folded marks in packed chunks, in the chunk being packed
    // and in the open one; entries released behind the reader as the importer does.
    void entryListReadsWhatWasPushed_data() {
        QTest::addColumn<int>("chunk");
        QTest::addColumn<int>("count");
        QTest::newRow("one open chunk") << 1024 << 1000;
        QTest::newRow("chunks of 1024, three windows") << 1024 << 150001;
        QTest::newRow("chunks of 128") << 128 << 70000;
    }
    void entryListReadsWhatWasPushed() {
        QFETCH(int, chunk);
        QFETCH(int, count);
        std::vector<snapshot_detail::Entry> expected = entriesOf(size_t(count), uint32_t(count));
        snapshot_detail::EntryList list{size_t(chunk)};
        std::mt19937 rng(7);
        for (size_t i = 0; i < expected.size(); ++i) {
            list.push(expected[i]);
            // Mark an entry pushed before, near (its chunk may be filling or being packed) or far.
            if (i % 3 == 0) {
                const size_t back = i % 2 == 0 ? rng() % 300 : rng() % (i + 1);
                const size_t j = i - std::min(i, back);
                list.markFolded(j);
                expected[j].flags |= snapshot_detail::kFolded;
            }
        }
        QCOMPARE(list.size(), expected.size());
        list.finish();
        const size_t before = list.memoryBytes();
        QVERIFY(before < expected.size() * sizeof(snapshot_detail::Entry) ||
                expected.size() <= size_t(chunk));
        snapshot_detail::EntryList::Reader reader(list);
        for (size_t i = 0; i < expected.size(); ++i) {
            if (i % 4096 == 0) {
                list.releaseBefore(i);
            }
            compareEntry(reader[i], expected[i], i);
            if (QTest::currentTestFailed()) {
                return;
            }
        }
        if (expected.size() > 2 * size_t(chunk)) {
            QVERIFY(list.memoryBytes() < before);
        }
    }

    void entryListChunkIsWholeBlocks() {
        QVERIFY_THROWS_EXCEPTION(std::logic_error, snapshot_detail::EntryList(100));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, snapshot_detail::EntryList(0));
    }
};

QTEST_APPLESS_MAIN(TestPackedColumn)
#include "test_packed_column.moc"
