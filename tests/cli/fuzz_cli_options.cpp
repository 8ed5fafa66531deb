// Random argument vectors for memscope-cli's parser, in-process (CliApp, the same CLI11 app
// main() uses): the command names, every option the app itself lists (with "=value" and as
// plain words), values that trip parsers (huge, negative, NaN, empty, sizes with odd units,
// invalid UTF-8, dashes) and random bytes. Each parse must end in one of the documented ways:
// a command chosen, help or version printed (exit 0), or a usage error (exit 2, exactly one line
// "memscope-cli: error: ..." that names the option or argument in question). No crash, no hang,
// no other exception, memory proportional to the arguments.
//
//   --iterations N  (default 5000)    --seed S    (tests/core/mutation_fuzzer.h)

#include "cli_app.h"
#include "heap_meter.h"
#include "mutation_fuzzer.h"

#include <QtTest/QtTest>

#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <typeinfo>

using namespace memscope;

namespace {

struct Vocabulary {
    std::vector<std::string> commands;
    std::vector<std::string> options;  // "--batch-size", "-o", ...
    std::vector<std::string> names;    // what errors may name: options, positionals, commands
};

Vocabulary vocabularyOf(CLI::App& app) {
    Vocabulary v;
    std::set<std::string> options = {"--help", "-h", "--version", "--help-all"};
    std::set<std::string> names;
    auto add = [&options, &names](const CLI::App* a) {
        for (const CLI::Option* o : a->get_options()) {
            if (!o->get_name().empty()) {
                names.insert(o->get_name());
            }
            for (const std::string& n : o->get_lnames()) {
                options.insert("--" + n);
            }
            for (const std::string& n : o->get_snames()) {
                options.insert("-" + n);
            }
        }
    };
    add(&app);
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
        v.commands.push_back(sub->get_name());
        add(sub);
    }
    v.options.assign(options.begin(), options.end());
    names.insert(v.commands.begin(), v.commands.end());
    v.names.assign(names.begin(), names.end());
    return v;
}

const std::vector<std::string> kValues = {"",
                                          "0",
                                          "1",
                                          "2",
                                          "-1",
                                          "-0",
                                          "8",
                                          "64",
                                          "1000000",
                                          "9223372036854775807",
                                          "9223372036854775808",
                                          "-9223372036854775808",
                                          "99999999999999999999999",
                                          "1e400",
                                          "-1e400",
                                          "nan",
                                          "inf",
                                          "0.5",
                                          "1.5",
                                          "0x10",
                                          "1,2,4",
                                          "4,,8",
                                          ",",
                                          "1GiB",
                                          "512MiB",
                                          "16EiB",
                                          "0B",
                                          "-5GiB",
                                          "1.5.5GB",
                                          "fp32",
                                          "bf16",
                                          "fp16",
                                          "eager",
                                          "sdpa",
                                          "flash",
                                          "per-block",
                                          "none",
                                          "training",
                                          "forward",
                                          "adamw",
                                          "sgd",
                                          "cpu",
                                          "cuda",
                                          "cuda:99",
                                          "cuda:-1",
                                          "rocm",
                                          "workshop-default",
                                          "study-tiny",
                                          "small",
                                          "2.7B",
                                          "grid",
                                          "axes",
                                          "H100",
                                          "NVIDIA H100",
                                          "hybrid",
                                          "data",
                                          "tensor",
                                          "pipeline",
                                          "json",
                                          "csv",
                                          "text",
                                          "chrome",
                                          "/nonexistent/x",
                                          "/nonexistent/x.memscope",
                                          "/nonexistent/x.pickle",
                                          "x.json",
                                          "-",
                                          "--",
                                          "---",
                                          "-=",
                                          "--=",
                                          "=",
                                          "==x",
                                          "\xff\xfe",
                                          "\xc3\x28",
                                          "a b",
                                          "\n",
                                          "\t",
                                          "\"",
                                          "'",
                                          "{}",
                                          "[]",
                                          "--batch-size=8",
                                          "-o",
                                          "-x"};

// "" or what went wrong.
std::string exercise(const std::vector<std::string>& args, const std::vector<std::string>& names,
                     double& slowestMs, int64_t& worstPeak,
                     std::map<std::string, int64_t>& outcomes) {
    std::vector<const char*> argv = {"memscope-cli"};
    size_t bytes = 0;
    for (const std::string& a : args) {
        argv.push_back(a.c_str());
        bytes += a.size() + 1;
    }
    const int64_t base = fuzz::heapLive();
    fuzz::resetHeapPeak();
    const fuzz::Stopwatch watch;
    std::ostringstream out;
    std::ostringstream err;
    std::optional<int> status;
    try {
        cli::CliApp cli;
        status = cli.parse(int(argv.size()), argv.data(), out, err);
    } catch (const std::exception& e) {
        return std::string("parse threw: ") + typeid(e).name() + ": " + e.what();
    }
    slowestMs = std::max(slowestMs, watch.cpuMs());
    const int64_t peak = fuzz::heapPeak() - base;
    worstPeak = std::max(worstPeak, peak);
    if (peak > int64_t(bytes) * 1024 + (8 << 20)) {
        return "used " + std::to_string(peak) + " heap bytes";
    }
    const std::string e = err.str();
    if (!status) {
        ++outcomes["command chosen"];
        return e.empty() ? "" : "a chosen command with errors: " + e;
    }
    if (*status == 0) {
        ++outcomes["help or version"];
        return out.str().empty() ? "exit 0 with nothing printed" : "";
    }
    if (*status != 2) {
        return "exit status " + std::to_string(*status);
    }
    const std::string prefix = "memscope-cli: error: ";
    if (e.rfind(prefix, 0) != 0 || e.back() != '\n' || e.find('\n') != e.size() - 1) {
        return "not one error line: " + fuzz::escaped(e);
    }
    const std::string message = e.substr(prefix.size(), e.size() - prefix.size() - 1);
    // The error names what it is about: an option (--x), a command, or an argument given.
    bool named =
        message.find("--") != std::string::npos || message.find("subcommand") != std::string::npos;
    for (const std::string& name : names) {
        named = named || message.find(name) != std::string::npos;
    }
    for (const std::string& a : args) {
        // An argument the one-line message cannot show (empty, or cut at its line break)
        const std::string shown = a.substr(0, std::min<size_t>(a.find('\n'), 20));
        named = named || shown.find_first_not_of(" \t\r") == std::string::npos ||
                message.find(shown) != std::string::npos;
    }
    if (!named) {
        return "the error names nothing the user gave: " + fuzz::escaped(message);
    }
    std::string kind = message.substr(0, 30);
    for (char& c : kind) {
        c = (c >= '0' && c <= '9') ? '#' : c;
    }
    ++outcomes["error: " + kind];
    return {};
}

}  // namespace

class FuzzCliOptions : public QObject {
    Q_OBJECT

  private slots:
    void knownCommandLines() {
        double slowest = 0;
        int64_t peak = 0;
        std::vector<std::string> names;
        {
            cli::CliApp cli;
            names = vocabularyOf(cli.app()).names;
        }
        std::map<std::string, int64_t> outcomes;
        const std::vector<std::vector<std::string>> lines = {
            {"train", "--preset", "study-tiny", "--num-steps", "2"},
            {"--version"},
            {"train", "--help"},
            {"train", "--batch-size", "many"},
            {"bogus"},
            {}};
        for (const auto& line : lines) {
            const std::string problem = exercise(line, names, slowest, peak, outcomes);
            QVERIFY2(problem.empty(), problem.c_str());
        }
        QCOMPARE(outcomes["command chosen"], int64_t(1));
        QCOMPARE(outcomes["help or version"], int64_t(2));
    }

    void randomArgumentVectors() {
        const auto settings = fuzz::Settings::get(5000, 20260401);
        fuzz::Mutator m(settings.seed, {'-', '=', ',', '.', ':', '0', '9', 0x00, 0x80, 0xff});
        Vocabulary v;
        {
            cli::CliApp cli;
            v = vocabularyOf(cli.app());
        }
        QVERIFY(v.commands.size() >= 9);
        QVERIFY(v.options.size() > 50);

        double slowestMs = 0;
        int64_t worstPeak = 0;
        std::map<std::string, int64_t> outcomes;
        const fuzz::Stopwatch watch;
        fuzz::Progress progress("cli options", settings);
        for (int64_t it = 0; it < settings.iterations; ++it) {
            progress.tick(it);
            std::vector<std::string> args;
            if (m.chance(90)) {
                args.push_back(m.pickFrom(v.commands));
            }
            for (int i = 0, n = int(m.pick(7)); i < n; ++i) {
                const std::string option = m.pickFrom(v.options);
                switch (m.pick(6)) {
                    case 0:
                    case 1:  // option value
                        args.push_back(option);
                        args.push_back(m.pickFrom(kValues));
                        break;
                    case 2:  // option=value
                        args.push_back(option + "=" + m.pickFrom(kValues));
                        break;
                    case 3:  // a flag, or an option missing its value
                        args.push_back(option);
                        break;
                    case 4:  // a word
                        args.push_back(m.chance(50) ? m.pickFrom(kValues) : m.pickFrom(v.commands));
                        break;
                    default: {  // a mutated option or value
                        const std::string base = m.chance(50) ? option : m.pickFrom(kValues);
                        const fuzz::Bytes b = m.mutated(fuzz::Bytes(base.begin(), base.end()), {});
                        args.emplace_back(b.begin(), b.end());
                        // argv strings end at the first NUL
                        args.back().resize(std::strlen(args.back().c_str()));
                    }
                }
            }
            const std::string problem = exercise(args, v.names, slowestMs, worstPeak, outcomes);
            if (!problem.empty() || slowestMs > fuzz::kSlowestInputMs) {
                std::string line;
                for (const std::string& a : args) {
                    line += " '" + fuzz::escaped(a) + "'";
                }
                QFAIL(qPrintable(
                    QString("iteration %1 (seed %2): %3\nargv:%4")
                        .arg(it)
                        .arg(settings.seed)
                        .arg(QString::fromStdString(problem.empty() ? "too slow" : problem))
                        .arg(QString::fromStdString(line))));
            }
        }
        qInfo(
            "%lld argument vectors in %.2f s: %lld chose a command, %lld help/version; slowest "
            "%.2f ms; peak heap %lld bytes",
            static_cast<long long>(settings.iterations), watch.seconds(),
            static_cast<long long>(outcomes["command chosen"]),
            static_cast<long long>(outcomes["help or version"]), slowestMs,
            static_cast<long long>(worstPeak));
        if (settings.verbose) {
            for (const auto& [what, count] : outcomes) {
                qInfo("%8lld  %s", static_cast<long long>(count), what.c_str());
            }
        }
        QVERIFY(outcomes["command chosen"] > 0);
    }
};

MEMSCOPE_FUZZ_MAIN(FuzzCliOptions)
#include "fuzz_cli_options.moc"
