// Mutation fuzzing of the three YAML readers: sweep definitions (SweepSpec::mergeYaml), planner
// requests (PlanRequest::fromYamlFile) and the device database (DeviceDatabase::parse). Valid
// seeds are mutated byte by byte and with YAML's own tokens (flow brackets, anchors, aliases,
// tags, block scalars, odd numbers, known keys in the wrong places). Every input must either be
// read or be refused with a ConfigError whose option names the file (and, past the YAML syntax,
// the field); nothing may crash, hang, throw anything else or use memory out of proportion.
// What parses is used the way the CLI would: a sweep's points (small grids), a plan evaluated
// against the database, a database's lookups.
//
// The device database's seeds are small databases cut from resources/devices.yaml (one to three
// of its device entries with the interconnects they name, sometimes others or none), and the
// whole file one execution in 16: parsing is linear in the input, and under ASan each of
// yaml-cpp's node allocations is expensive, so mutating the 4.6 KB file every time ran at a
// fifth of the other readers' rate while most mutations landed in entries much like the others.
//
//   --iterations N  (default 4000 per reader)    --seed S    (mutation_fuzzer.h)
//   One reader: fuzz_yaml_readers sweepSpec|planRequest|deviceDatabase --iterations N

#include "heap_meter.h"
#include "model/config_error.h"
#include "mutation_fuzzer.h"
#include "predict/device_database.h"
#include "predict/plan_request.h"
#include "predict/planner.h"
#include "studies/sweep_spec.h"

#include <nlohmann/json.hpp>

#include <QtTest/QtTest>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <typeinfo>

using namespace memscope;
using fuzz::Bytes;

namespace {

const char* kSweepSeed =
    "# a sweep\n"
    "batch_sizes: [1, 2]\n"
    "seq_lens: 16,32\n"
    "presets: [study-tiny]\n"
    "dtypes: [fp32, bf16]\n"
    "attention: [eager]\n"
    "checkpointing: [off, on]\n"
    "profile_types: [training, forward]\n"
    "steps: 1\n"
    "capacity: 64MiB\n"
    "mode: axes\n";

const char* kPlanSeed =
    "model:\n"
    "  size_billions: 7\n"
    "  batch_size: 32\n"
    "  sequence_length: 2048\n"
    "  precision: bf16\n"
    "  optimizer: adamw\n"
    "hardware:\n"
    "  gpu_type: H100\n"
    "cluster:\n"
    "  num_gpus: 8\n"
    "  nodes: 2\n"
    "  gpus_per_node: 4\n"
    "distribution:\n"
    "  strategy: hybrid\n"
    "  data_parallel: 4\n"
    "  tensor_parallel: 2\n"
    "  zero_stage: 1\n"
    "analysis:\n"
    "  mfu: 0.4\n"
    "  enable_bottlenecks: true\n"
    "  max_batch_size: false\n";

// YAML's syntax and the values readers trip over.
const std::vector<std::string> kDictionary = {": ",
                                              "- ",
                                              "\n  ",
                                              "\n- ",
                                              "[",
                                              "]",
                                              "{",
                                              "}",
                                              ", ",
                                              "&a ",
                                              "*a",
                                              "<<: *a",
                                              "!!str ",
                                              "!!binary ",
                                              "!!map ",
                                              "? ",
                                              "|\n  ",
                                              ">-\n  ",
                                              "'",
                                              "\"",
                                              "\\x00",
                                              "\t",
                                              "#",
                                              "---\n",
                                              "...\n",
                                              "%YAML 1.2\n",
                                              "~",
                                              "null",
                                              "true",
                                              "no",
                                              "0",
                                              "-1",
                                              "1e400",
                                              "-1e400",
                                              ".nan",
                                              ".inf",
                                              "0x7fffffffffffffff",
                                              "9223372036854775807",
                                              "9223372036854775808",
                                              "-9223372036854775808",
                                              "99999999999999999999",
                                              "1.5",
                                              "0.0",
                                              "1TiB",
                                              "16EiB",
                                              "0B",
                                              "999999PiB",
                                              "-5GiB",
                                              "nan GiB",
                                              "[]",
                                              "{}",
                                              "''",
                                              "\xff\xfe",
                                              "\xc3\x28",
                                              "model",
                                              "hardware",
                                              "cluster",
                                              "distribution",
                                              "analysis",
                                              "size_billions",
                                              "batch_size",
                                              "sequence_length",
                                              "num_gpus",
                                              "gpus_per_node",
                                              "nodes",
                                              "tensor_parallel",
                                              "pipeline_parallel",
                                              "data_parallel",
                                              "micro_batches",
                                              "zero_stage",
                                              "strategy",
                                              "mfu",
                                              "devices",
                                              "interconnects",
                                              "name",
                                              "aliases",
                                              "memory",
                                              "usable_fraction",
                                              "kind",
                                              "interconnect",
                                              "bandwidth_gbs",
                                              "context",
                                              "reserved_factor",
                                              "batch_sizes",
                                              "seq_lens",
                                              "presets",
                                              "dtypes",
                                              "attention",
                                              "checkpointing",
                                              "profile_types",
                                              "steps",
                                              "capacity",
                                              "mode",
                                              "grid",
                                              "preset",
                                              "study-tiny",
                                              "workshop-default"};

const std::vector<uint8_t> kInteresting = {
    0x00, 0x09, 0x0a, 0x0d, ' ', ':', '-', '[', ']', '{', '}', ',',  '&',  '*',  '!',  '|',  '>',
    '\'', '"',  '#',  '%',  '@', '`', '?', '0', '9', 'e', '.', 0x7f, 0x80, 0xc3, 0xe2, 0xef, 0xff};

struct Stats {
    int64_t accepted = 0;
    int64_t refused = 0;
    double slowestMs = 0;
    int64_t worstPeak = 0;
    std::map<std::string, int64_t> reasons;
};

// Runs `read`, which throws ConfigError or returns; "" or what went wrong. `file` is what the
// error's option must start with. The heap is measured around `read` alone, not `use`.
std::string exercise(const std::string& input, const std::string& file,
                     const std::function<void()>& read, Stats& stats) {
    const int64_t base = fuzz::heapLive();
    fuzz::resetHeapPeak();
    const fuzz::Stopwatch watch;
    std::string problem;
    try {
        read();
        ++stats.accepted;
    } catch (const ConfigError& e) {
        ++stats.refused;
        const std::string what = e.what();
        if (e.option().rfind(file, 0) != 0) {
            problem = "ConfigError does not name the file: " + what;
        } else if (what.size() < e.option().size() + 5) {
            problem = "ConfigError says too little: " + what;
        }
        // What refused it, for MEMSCOPE_FUZZ_VERBOSE: the field without the file and numbers.
        std::string field = e.option().substr(std::min(e.option().size(), file.size()));
        for (char& c : field) {
            c = (c >= '0' && c <= '9') ? '#' : c;
        }
        ++stats.reasons[field.substr(0, 40)];
    } catch (const std::exception& e) {
        problem = std::string("unexpected exception: ") + typeid(e).name() + ": " + e.what();
    }
    const double ms = watch.cpuMs();
    stats.slowestMs = std::max(stats.slowestMs, ms);
    const int64_t peak = fuzz::heapPeak() - base;
    stats.worstPeak = std::max(stats.worstPeak, peak);
    if (problem.empty() && ms > fuzz::kSlowestInputMs) {
        problem = "took " + std::to_string(ms) + " ms";
    }
    if (problem.empty() && peak > int64_t(input.size()) * 2048 + (16 << 20)) {
        problem = "used " + std::to_string(peak) + " heap bytes for " +
                  std::to_string(input.size()) + " input bytes";
    }
    return problem;
}

// resources/devices.yaml in pieces: its interconnect lines and its device entries (each from its
// "  - name:" line to the next, comments included), and small databases made of them.
struct DatabasePieces {
    std::string whole;
    std::vector<std::string> interconnects;  // "  - {name: nvlink_4, bandwidth_gbs: 450}\n"
    std::vector<std::string> devices;        // "  - name: NVIDIA H100 SXM\n    aliases: ...\n"

    static DatabasePieces split(const std::string& text) {
        DatabasePieces p;
        p.whole = text;
        const size_t links = text.find("\ninterconnects:\n");
        const size_t devices = text.find("\ndevices:\n");
        if (links == std::string::npos || devices == std::string::npos || devices < links) {
            return p;
        }
        auto lines = [&text](size_t from, size_t to) {
            std::vector<std::string> out;
            while (from < to) {
                const size_t newline = text.find('\n', from);
                const size_t end = newline == std::string::npos ? to : std::min(to, newline + 1);
                out.push_back(text.substr(from, end - from));
                from = end;
            }
            return out;
        };
        for (const std::string& line : lines(links + 16, devices + 1)) {
            if (line.rfind("  - {name: ", 0) == 0) {
                p.interconnects.push_back(line);
            }
        }
        for (const std::string& line : lines(devices + 10, text.size())) {
            if (line.rfind("  - name: ", 0) == 0 || p.devices.empty()) {
                p.devices.push_back(line);
            } else {
                p.devices.back() += line;
            }
        }
        return p;
    }

    // The interconnect a device entry names ("" when none).
    static std::string interconnectOf(const std::string& entry) {
        const std::string key = "\n    interconnect: ";
        const size_t at = entry.find(key);
        if (at == std::string::npos) {
            return {};
        }
        const size_t from = at + key.size();
        return entry.substr(from, entry.find_first_of(" #\n", from) - from);
    }

    // One to three device entries (in any order, repeats allowed) and the interconnects they
    // name, each other interconnect with a chance of 1 in 4; no interconnects section 1 time in
    // 16. The whole file 1 time in 16.
    std::string pick(fuzz::Mutator& m) const {
        if (m.pick(16) == 0) {
            return whole;
        }
        std::string links = "interconnects:\n";
        std::string entries = "devices:\n";
        std::vector<std::string> named;
        for (size_t i = 0, n = 1 + m.pick(3); i < n; ++i) {
            const std::string& entry = m.pickFrom(devices);
            entries += entry;
            named.push_back(interconnectOf(entry));
        }
        for (const std::string& line : interconnects) {
            const bool needed = std::any_of(named.begin(), named.end(), [&line](const auto& n) {
                return !n.empty() && line.rfind("  - {name: " + n + ",", 0) == 0;
            });
            if (needed || m.pick(4) == 0) {
                links += line;
            }
        }
        return m.pick(16) == 0 ? entries : links + "\n" + entries;
    }
};

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeText(const std::string& path, const std::string& text) {
    std::remove(path.c_str());
    std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

class FuzzYamlReaders : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_planPath = m_dir.filePath("plan.yaml").toStdString();
        m_devicesSeed = readText(MEMSCOPE_SOURCE_DIR "/resources/devices.yaml");
        QVERIFY(m_devicesSeed.size() > 1000);
        m_databasePieces = DatabasePieces::split(m_devicesSeed);
        // A fixed CPU peak instead of PeakFlops::measureCpu: the fuzzer tests the readers and the
        // planner's arithmetic, not this machine, and stays without LibTorch (memscope_base).
        m_planner = std::make_unique<Planner>(DeviceDatabase::parse(m_devicesSeed, "devices"),
                                              [](Dtype, int threads) { return 5e10 * threads; });
    }

    // The seeds are read whole: the mutations start from inputs that reach every field.
    void seedsAreValid() {
        SweepSpec spec;
        spec.mergeYaml(kSweepSeed, "sweep.yaml");
        QCOMPARE(spec.dtypes.size(), size_t(2));
        QVERIFY(spec.mode == SweepSpec::Mode::Axes);
        QVERIFY(!spec.points().empty());
        writeText(m_planPath, kPlanSeed);
        const PlanRequest request = PlanRequest::fromYamlFile(m_planPath);
        QCOMPARE(request.parallel.gpus, 8);
        (void)m_planner->evaluate(request);
        const DeviceDatabase whole = DeviceDatabase::parse(m_devicesSeed, "db.yaml");
        QVERIFY(whole.devices().size() > 5);
        // The device database's seeds: every entry and interconnect line of the file, and small
        // databases made of them that are read whole (the file's layout is what split() expects).
        const DatabasePieces& pieces = m_databasePieces;
        QCOMPARE(pieces.devices.size(), whole.devices().size());
        QVERIFY(pieces.interconnects.size() >= 5);
        QVERIFY(whole.interconnectBandwidth("nvlink_4") > 0);
        fuzz::Mutator m(1, {});
        int small = 0;
        std::set<std::string> seen;
        for (int i = 0; i < 400; ++i) {
            const std::string text = pieces.pick(m);
            if (text == m_devicesSeed || text.rfind("devices:", 0) == 0) {
                continue;  // the whole file; or no interconnects section, which can be refused
            }
            ++small;
            const DeviceDatabase db = DeviceDatabase::parse(text, "db.yaml");
            QVERIFY(!db.devices().empty() && db.devices().size() <= 3);
            QVERIFY2(text.size() < m_devicesSeed.size() / 2, text.c_str());
            for (const DeviceSpec& d : db.devices()) {
                seen.insert(d.name);
            }
        }
        QVERIFY(small > 300);
        QCOMPARE(seen.size(), whole.devices().size());  // every entry is a seed
    }

    // Inputs built to be expensive rather than malformed.
    void adversarialInputs() {
        std::vector<std::string> inputs = {
            std::string(100000, '['), std::string(100000, '{'), std::string(50000, '-') + " x",
            "a: &a [1, 2]\n" + std::string(2000, ' '),
            // Billion laughs: aliases of aliases (yaml-cpp shares the nodes).
            "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
            "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\n"
            "batch_sizes: *d\nseq_lens: *d\nmodel: *d\ndevices: *d\n",
            "batch_sizes: [" + std::string(20000, '1') + "]\n", "devices:\n" + [] {
                std::string s;
                for (int i = 0; i < 2000; ++i) {
                    s += "  - {name: d" + std::to_string(i) + ", memory: 1GiB, aliases: [a" +
                         std::to_string(i) + "]}\n";
                }
                return s;
            }()};
        Stats stats;
        for (const std::string& input : inputs) {
            for (const std::string& problem : runAll(input, stats)) {
                QVERIFY2(problem.empty(),
                         (problem + "\ninput: " + fuzz::escaped(input.substr(0, 200))).c_str());
            }
        }
        qInfo("adversarial: %lld read, %lld refused, slowest %.1f ms, peak heap %.1f MiB",
              static_cast<long long>(stats.accepted), static_cast<long long>(stats.refused),
              stats.slowestMs, double(stats.worstPeak) / (1 << 20));
    }

    // Found by a 1M-execution campaign (sweep spec, seed 20260201, iteration 141942): a value
    // quoted into an error message with a NUL in it cut what() short before it said what was
    // wrong. Every reader quotes values with control bytes made printable.
    void controlBytesInQuotedValues() {
        const std::string nul(1, '\0');
        const std::string found =
            "# a sweep\nbatch_sizes: \"1," + nul +
            "2]\nseq_lens: 16,32\npresets: [study\rtiny]\ndtypes: [fp32, bf16]\n"
            "attention: [eager]\ncheckpointing: [off, on]\nprofmle_types: [training, "
            "fo\xf2ward]\nsteps: 1\ncap\xff"
            "city: 64MiB\nmode: axes\n";
        // Each input is refused by the reader it is written for, with the whole message.
        const std::vector<std::pair<Reader, std::string>> inputs = {
            {&FuzzYamlReaders::sweep, found},
            {&FuzzYamlReaders::sweep, "batch_sizes: \"x\\0y\"\n"},
            {&FuzzYamlReaders::sweep, "mode: \"grid\\0\"\n"},
            {&FuzzYamlReaders::sweep, "capacity: \"1\\0\"\n"},  // was read as 1 byte
            {&FuzzYamlReaders::sweep, "capacity: \"1\\0GiB\"\n"},
            {&FuzzYamlReaders::sweep, "dtypes: [\"fp\\0\"]\n"},
            {&FuzzYamlReaders::plan, "model: {type: \"a\\0b\"}\n"},
            {&FuzzYamlReaders::plan, "model: {framework: \"a\\0b\"}\n"},
            {&FuzzYamlReaders::plan, "model: {preset: \"a\\0b\"}\n"},
            {&FuzzYamlReaders::plan, "model: {size_billions: \"7\\0\"}\n"},
            {&FuzzYamlReaders::plan, "model: {batch_size: \"3\\0\"}\n"},
            {&FuzzYamlReaders::database,
             "interconnects: [{name: a, bandwidth_gbs: 1}]\ndevices: [{name: d, kind: gpu, "
             "memory: 1GiB, interconnect: \"b\\0c\"}]\n"}};
        for (const auto& [reader, input] : inputs) {
            Stats stats;
            const std::string problem = (this->*reader)(input, stats);
            QVERIFY2(problem.empty(), (problem + "\ninput: " + fuzz::escaped(input)).c_str());
            QVERIFY2(stats.refused == 1, ("not refused: " + fuzz::escaped(input)).c_str());
            for (const std::string& other : runAll(input, stats)) {
                QVERIFY2(other.empty(), (other + "\ninput: " + fuzz::escaped(input)).c_str());
            }
        }
    }

    void sweepSpec() {
        fuzzReader("sweep spec", 20260201, &FuzzYamlReaders::sweep,
                   [](fuzz::Mutator&) { return std::string(kSweepSeed); });
    }
    void planRequest() {
        fuzzReader("plan request", 20260202, &FuzzYamlReaders::plan,
                   [](fuzz::Mutator&) { return std::string(kPlanSeed); });
    }
    void deviceDatabase() {
        fuzzReader("device database", 20260203, &FuzzYamlReaders::database,
                   [this](fuzz::Mutator& m) { return m_databasePieces.pick(m); });
    }

  private:
    using Reader = std::string (FuzzYamlReaders::*)(const std::string&, Stats&);

    std::string sweep(const std::string& text, Stats& stats) {
        return exercise(
            text, "sweep.yaml",
            [&] {
                SweepSpec spec;
                spec.mergeYaml(text, "sweep.yaml");
                // The points of a small grid (a big one is what the user asked for).
                size_t n = 1;
                for (size_t k : {spec.batch_sizes.size(), spec.seq_lens.size(), spec.presets.size(),
                                 spec.dtypes.size(), spec.attentions.size(),
                                 spec.checkpointing.size(), spec.profiles.size()}) {
                    n *= std::max<size_t>(k, 1);
                }
                if (n <= 256) {
                    try {
                        (void)spec.points();
                    } catch (const ConfigError& e) {
                        // points() validates each point and names the field and the point.
                        if (std::string(e.what()).size() < 5) {
                            throw std::logic_error("points(): empty ConfigError");
                        }
                    }
                }
                (void)SweepSpec::fromJson(spec.toJson());
            },
            stats);
    }

    std::string plan(const std::string& text, Stats& stats) {
        writeText(m_planPath, text);
        return exercise(
            text, m_planPath + ": ",
            [&] {
                const PlanRequest request = PlanRequest::fromYamlFile(m_planPath);
                (void)request.toJson();
                try {
                    (void)m_planner->evaluate(request);
                } catch (const ConfigError& e) {
                    // The planner names the option (--gpu-type, --batch-size); not the file.
                    if (e.option().empty()) {
                        throw std::logic_error("evaluate(): ConfigError without an option");
                    }
                }
            },
            stats);
    }

    std::string database(const std::string& text, Stats& stats) {
        return exercise(
            text, "devices.yaml",
            [&] {
                const DeviceDatabase db = DeviceDatabase::parse(text, "devices.yaml");
                for (const std::string& name : db.names()) {
                    if (!db.find(name)) {
                        throw std::logic_error("names() lists '" + name + "' but find() misses it");
                    }
                }
                (void)db.interconnectBandwidth("nvlink_4");
            },
            stats);
    }

    std::vector<std::string> runAll(const std::string& input, Stats& stats) {
        return {sweep(input, stats), plan(input, stats), database(input, stats)};
    }

    // `seedFor` gives each execution the valid input it mutates (from the mutator's random numbers,
    // so a seed still reproduces the sequence).
    void fuzzReader(const char* name, uint64_t defaultSeed, Reader reader,
                    const std::function<std::string(fuzz::Mutator&)>& seedFor) {
        const auto settings = fuzz::Settings::get(4000, defaultSeed);
        fuzz::Mutator mutator(settings.seed, kInteresting, kDictionary);
        Stats stats;
        int64_t seedBytes = 0;
        const fuzz::Stopwatch watch;
        fuzz::Progress progress(name, settings);
        for (int64_t it = 0; it < settings.iterations; ++it) {
            progress.tick(it);
            const std::string seedText = seedFor(mutator);
            seedBytes += int64_t(seedText.size());
            const Bytes b = mutator.mutated(Bytes(seedText.begin(), seedText.end()), {}, 4);
            const std::string text(b.begin(), b.end());
            const std::string problem = (this->*reader)(text, stats);
            if (!problem.empty()) {
                QFAIL(qPrintable(QString("%1, iteration %2 (seed %3): %4\ninput: %5")
                                     .arg(name)
                                     .arg(it)
                                     .arg(settings.seed)
                                     .arg(QString::fromStdString(problem))
                                     .arg(QString::fromStdString(fuzz::escaped(text)))));
            }
        }
        qInfo(
            "%s: %lld mutations of seeds of %lld bytes on average in %.2f s: %lld read, %lld "
            "refused; slowest %.2f ms; peak heap %lld bytes",
            name, static_cast<long long>(settings.iterations),
            static_cast<long long>(seedBytes / std::max<int64_t>(settings.iterations, 1)),
            watch.seconds(), static_cast<long long>(stats.accepted),
            static_cast<long long>(stats.refused), stats.slowestMs,
            static_cast<long long>(stats.worstPeak));
        if (settings.verbose) {
            for (const auto& [reason, count] : stats.reasons) {
                qInfo("%8lld  %s", static_cast<long long>(count), reason.c_str());
            }
        }
        QVERIFY(stats.refused > 0);
        QVERIFY(stats.accepted > 0);  // the mutations still reach past the syntax
    }

    QTemporaryDir m_dir;
    std::string m_planPath;
    std::string m_devicesSeed;
    DatabasePieces m_databasePieces;
    std::unique_ptr<Planner> m_planner;
};

MEMSCOPE_FUZZ_MAIN(FuzzYamlReaders)
#include "fuzz_yaml_readers.moc"
