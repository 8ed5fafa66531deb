// Every training option is one row of TrainOptionTable (issue 42). Each row goes round through
// every place that reads or writes it: its flag and each alias on memscope-cli's command line
// (TrainOptionSet, in-process), the run configuration's JSON (TrainOptions::toJson and
// fromJson), and the planner's YAML under its planner name. An option added to the table
// without a sample value here, a binding in TrainOptions or a way through the CLI fails here.

#include "model/config_error.h"
#include "model/preset.h"
#include "model/train_option_table.h"
#include "predict/plan_request.h"
#include "run/train_options.h"
#include "studies/sweep_spec.h"
#include "train_option_set.h"

#include <nlohmann/json.hpp>

#include <CLI/App.hpp>
#include <QtTest/QtTest>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

using namespace memscope;

namespace {

// A value for every option that differs from the defaults and from every preset's, and that
// makes a valid run together with the others.
const std::map<std::string, std::string>& samples() {
    static const std::map<std::string, std::string> values{
        {"preset", "study-tiny"},
        {"hidden_dim", "96"},
        {"num_layers", "3"},
        {"num_heads", "6"},
        {"num_kv_heads", "3"},
        {"intermediate_dim", "200"},
        {"vocab_size", "300"},
        {"max_seq_len", "64"},
        {"rope_theta", "5000"},
        {"norm_eps", "0.0001"},
        {"tie_embeddings", "false"},
        {"batch_size", "3"},
        {"seq_len", "40"},
        {"num_steps", "7"},
        {"warmup_steps", "2"},
        {"profile_type", "forward"},
        {"optimizer", "sgd"},
        {"learning_rate", "0.01"},
        {"weight_decay", "0.05"},
        {"sgd_momentum", "0.8"},
        {"seed", "7"},
        {"dtype", "bf16"},
        {"attention", "sdpa"},
        {"checkpointing", "per-block"},
        {"device", "cpu"},
        {"threads", "1"},
        {"device_memory_limit", "64MiB"},
    };
    return values;
}

// The options memscope-cli resolves from `args` (argv[0] first).
TrainOptions parse(std::vector<std::string> args) {
    CLI::App app("test");
    cli::TrainOptionSet set;
    set.addTo(app);
    std::vector<const char*> argv{"memscope-cli"};
    for (const auto& a : args) {
        argv.push_back(a.c_str());
    }
    app.parse(int(argv.size()), argv.data());
    return set.resolve();
}

}  // namespace

class TestTrainOptionTable : public QObject {
    Q_OBJECT

  private slots:
    void every_row_has_a_sample_a_binding_and_unique_spellings() {
        std::set<std::string> spellings;
        const nlohmann::json defaults = TrainOptions().toJson();
        for (const TrainOptionRow& row : TrainOptionTable::rows()) {
            QVERIFY2(samples().count(row.key) == 1, row.key);
            QVERIFY2(defaults.contains(row.key), row.key);  // toJson writes it
            QVERIFY2(std::string(row.flag).rfind("--", 0) == 0, row.flag);
            QVERIFY2(std::string(row.help).size() > 3, row.key);
            QVERIFY2(std::string(row.label).size() > 1, row.key);
            for (const std::string& s : [&] {
                     std::vector<std::string> all{row.flag};
                     all.insert(all.end(), row.aliases.begin(), row.aliases.end());
                     if (row.negation) {
                         all.push_back(row.negation);
                     }
                     return all;
                 }()) {
                QVERIFY2(spellings.insert(s).second, s.c_str());
                QCOMPARE(TrainOptionTable::find(s), &row);
            }
            QCOMPARE(TrainOptionTable::find(row.key), &row);
            if (row.planner_name) {
                QCOMPARE(TrainOptionTable::find(row.planner_name), &row);
            }
            QVERIFY((row.type == OptionType::Choice) == (row.choices != nullptr));
        }
        QCOMPARE(samples().size(), TrainOptionTable::rows().size());
        QCOMPARE(defaults.size(), TrainOptionTable::rows().size());  // and nothing else
        QVERIFY_THROWS_EXCEPTION(std::logic_error, TrainOptionTable::row("no_such_option"));
        QVERIFY(TrainOptionTable::find("--no-such-option") == nullptr);
    }

    // What a form says of a row names only what the table has: a choice text's name is one of
    // the row's choices, and a field waits on a choice row for one of its names.
    void form_texts_and_needs_name_what_the_table_has() {
        int texts = 0;
        int needs = 0;
        for (const TrainOptionRow& row : TrainOptionTable::rows()) {
            if (row.run_panel != FormGroup::None || row.planner_page != FormGroup::None) {
                QVERIFY2(std::string(row.tip).size() > 3, row.key);  // a form shows it
            }
            for (const auto& [name, text] : row.choice_texts) {
                QVERIFY2(row.type == OptionType::Choice, row.key);
                const auto names = row.choices();
                QVERIFY2(std::find(names.begin(), names.end(), name) != names.end(), name);
                QVERIFY2(std::string(text).size() > 1, name);
                ++texts;
            }
            QCOMPARE(row.needs_key == nullptr, row.needs_value == nullptr);
            if (row.needs_key != nullptr) {
                const TrainOptionRow& needed = TrainOptionTable::row(row.needs_key);
                QVERIFY2(needed.type == OptionType::Choice, row.key);
                const auto names = needed.choices();
                QVERIFY2(std::find(names.begin(), names.end(), row.needs_value) != names.end(),
                         row.needs_value);
                QVERIFY2(std::string(needed.key) != row.key, row.key);
                ++needs;
            }
        }
        QVERIFY(texts >= 10);
        QCOMPARE(needs, 2);  // the optimizer and its learning rate: training only
    }

    void every_row_round_trips_through_flag_json_and_alias() {
        // All samples at once on the command line: together they make one valid run.
        std::vector<std::string> args;
        for (const TrainOptionRow& row : TrainOptionTable::rows()) {
            const std::string& text = samples().at(row.key);
            if (row.type == OptionType::Flag) {
                args.push_back(text == "true" ? row.flag : row.negation);
            } else {
                args.insert(args.end(), {row.flag, text});
            }
        }
        const TrainOptions o = parse(args);
        const nlohmann::json json = o.toJson();
        const TrainOptions back = TrainOptions::fromJson(json);
        for (const TrainOptionRow& row : TrainOptionTable::rows()) {
            const nlohmann::json expected = TrainOptions::parseValue(row, samples().at(row.key));
            QVERIFY2(
                o.value(row.key) == expected,
                (std::string(row.flag) + ": " + o.value(row.key).dump() + " vs " + expected.dump())
                    .c_str());
            QVERIFY2(expected != TrainOptions().value(row.key) || row.type == OptionType::Text,
                     row.key);  // the sample tests something
            QVERIFY2(back.value(row.key) == expected, row.key);
            // Each alias sets the same field.
            for (const std::string& alias : row.aliases) {
                auto with_alias = args;
                for (auto& a : with_alias) {
                    if (a == row.flag) {
                        a = alias;
                    }
                }
                QVERIFY2(parse(with_alias).value(row.key) == expected, alias.c_str());
            }
        }
    }

    void a_wrong_value_names_the_flag_and_the_json_field() {
        for (const TrainOptionRow& row : TrainOptionTable::rows()) {
            if (row.type == OptionType::Text || row.type == OptionType::Flag) {
                continue;
            }
            try {
                TrainOptions::parseValue(row, "not-a-value");
                QFAIL(row.key);
            } catch (const ConfigError& e) {
                QCOMPARE(e.option(), std::string(row.flag));
            }
            try {
                TrainOptions::fromJson(nlohmann::json{{row.key, nlohmann::json::array()}});
                QFAIL(row.key);
            } catch (const ConfigError& e) {
                QCOMPARE(e.option(), std::string(row.flag));
            }
        }
        // A choice reads through its parser's aliases and is its name; a preset is one of the
        // presets, and a form's "custom" shape is none on the command line.
        QCOMPARE(TrainOptions::parseValue(TrainOptionTable::row("preset"), "study-tiny"),
                 nlohmann::json("study-tiny"));
        QCOMPARE(TrainOptions::parseValue(TrainOptionTable::row("attention"), "mem-efficient"),
                 nlohmann::json("memory-efficient"));
        for (const char* wrong : {"custom", "Study-Tiny", ""}) {
            try {
                TrainOptions::parseValue(TrainOptionTable::row("preset"), wrong);
                QFAIL(wrong);
            } catch (const ConfigError& e) {
                QCOMPARE(e.option(), std::string("--preset"));
                QVERIFY2(std::string(e.what()).find("study-tiny") != std::string::npos, e.what());
            }
        }
        // Model checks name the table's flags too.
        TrainOptions o;
        o.model.n_heads = 7;
        try {
            o.validate();
            QFAIL("7 heads of 256");
        } catch (const ConfigError& e) {
            QCOMPARE(e.option(), TrainOptionTable::flag("num_heads"));
            QVERIFY(std::string(e.what()).find(TrainOptionTable::flag("hidden_dim")) !=
                    std::string::npos);
        }
    }

    // A value outside its row's range has one check wherever it comes in (issue 54): a flag's
    // text, JSON (--options, a run's configuration, a form's values), the planner's YAML and a
    // sweep's list all give the row's reason; a flag and JSON name the flag, --options, the YAML
    // and the list their own field. Before, JSON and its `{"batch_size": 100000}` ran.
    void a_value_out_of_range_is_refused_alike_wherever_it_comes_in() {
        QTemporaryDir dir;
        int checked = 0;
        for (const TrainOptionRow& row : TrainOptionTable::rows()) {
            // (text, JSON) outside the range: above it, and below it (but a size's -1, which
            // as text is no size at all).
            std::vector<std::pair<std::string, nlohmann::json>> outside;
            if (row.type == OptionType::Integer || row.type == OptionType::Bytes) {
                outside.emplace_back(std::to_string(2 * row.max), 2 * row.max);
                if (row.type == OptionType::Integer) {
                    outside.emplace_back(std::to_string(row.min - 1), row.min - 1);
                }
            } else if (row.type == OptionType::Real) {
                outside.emplace_back(std::to_string(2 * row.real_max + 1), 2 * row.real_max + 1);
                outside.emplace_back(std::to_string(row.real_min), row.real_min);
            }
            for (const auto& [text, value] : outside) {
                const std::string what = std::string(row.key) + " " + text;
                std::string reason;
                try {
                    TrainOptions::parseValue(row, text);
                    QFAIL(what.c_str());
                } catch (const ConfigError& e) {
                    QCOMPARE(e.option(), std::string(row.flag));
                    reason = e.reason();
                }
                QVERIFY2(reason.rfind("must be ", 0) == 0, (what + ": " + reason).c_str());
                try {
                    TrainOptions::fromJson(nlohmann::json{{row.key, value}});
                    QFAIL(what.c_str());
                } catch (const ConfigError& e) {
                    QCOMPARE(e.option(), std::string(row.flag));
                    QCOMPARE(e.reason(), reason);
                }
                // --options FILE: the field and the file, with the flag's reason.
                const std::string file = dir.filePath(QString(row.key) + ".json").toStdString();
                std::ofstream(file) << nlohmann::json{{row.key, value}}.dump();
                try {
                    parse({"--options", file});
                    QFAIL(what.c_str());
                } catch (const ConfigError& e) {
                    QCOMPARE(e.option(), std::string("--options"));
                    QCOMPARE(e.reason(), file + ": field " + row.key + " " + reason);
                }
                if (row.planner_name != nullptr && row.type == OptionType::Integer) {
                    try {
                        PlanRequest::fromYaml(std::string("model:\n  ") + row.planner_name + ": " +
                                              text + "\n");
                        QFAIL(what.c_str());
                    } catch (const ConfigError& e) {
                        QCOMPARE(e.option(), std::string("model.") + row.planner_name);
                        QCOMPARE(e.reason(), reason);
                    }
                }
                if (row.sweep && row.type == OptionType::Integer) {
                    try {
                        SweepSpec::parseSizes("--sizes", "4," + text, row.key);
                        QFAIL(what.c_str());
                    } catch (const ConfigError& e) {
                        QCOMPARE(e.option(), std::string("--sizes"));
                        QCOMPARE(e.reason(), reason);
                    }
                }
                ++checked;
            }
        }
        QVERIFY(checked >= 30);
        // The two: a vocabulary of 1 in JSON, and the batch its example gave.
        QVERIFY_THROWS_EXCEPTION(ConfigError,
                                 TrainOptions::fromJson(nlohmann::json{{"vocab_size", 1}}));
        try {
            TrainOptions::fromJson(nlohmann::json{{"batch_size", 100000}});
            QFAIL("batch 100000");
        } catch (const ConfigError& e) {
            QCOMPARE(std::string(e.what()), std::string("--batch-size: must be between 1 and "
                                                        "65536, got 100000"));
        }
        // A whole-number option takes 8.0 from JSON as 8, and 8.5 as no count at all.
        QCOMPARE(TrainOptions::fromJson(nlohmann::json{{"batch_size", 8.0}}).batch_size, 8);
        QVERIFY_THROWS_EXCEPTION(ConfigError,
                                 TrainOptions::fromJson(nlohmann::json{{"batch_size", 8.5}}));
    }

    // A size of 0 is no limit on the flag too, as in JSON and the form (issue 54: the flag
    // refused it as "not a size").
    void a_memory_limit_of_0_is_no_limit_everywhere() {
        const TrainOptionRow& row = TrainOptionTable::row("device_memory_limit");
        QCOMPARE(TrainOptions::parseValue(row, "0"), nlohmann::json(0));
        TrainOptions limited;
        limited.device_memory_limit = 1 << 20;
        QCOMPARE(TrainOptions::fromJson(nlohmann::json{{row.key, 0}}, limited).device_memory_limit,
                 int64_t(0));
        QCOMPARE(parse({row.flag, "0"}).device_memory_limit, int64_t(0));
        QCOMPARE(parse({row.flag, "64MiB"}).device_memory_limit, int64_t(64) << 20);
        QVERIFY_THROWS_EXCEPTION(ConfigError,
                                 TrainOptions::fromJson(nlohmann::json{{row.key, -1}}));
    }

    // The CS336 sizes are one list, the presets' (issue 54: --model-size and the report each
    // had their own): --model-size takes each of them and no other preset.
    void model_size_takes_the_cs336_presets() {
        const std::vector<std::string> names = Preset::cs336Names();
        QCOMPARE(names.size(), size_t(5));
        for (const Preset& preset : Preset::all()) {
            const bool listed = std::find(names.begin(), names.end(), preset.name) != names.end();
            QCOMPARE(listed, preset.cs336);
            QCOMPARE(preset.cs336, preset.source.rfind("CS336", 0) == 0);
            if (preset.cs336) {
                QCOMPARE(parse({"--model-size", preset.name}).preset, preset.name);
            } else {
                QVERIFY_THROWS_EXCEPTION(CLI::ValidationError,
                                         parse({"--model-size", preset.name}));
            }
        }
    }

    void the_planner_reads_every_planner_name() {
        std::string yaml = "model:\n";
        std::vector<const TrainOptionRow*> read;
        for (const TrainOptionRow& row : TrainOptionTable::rows()) {
            if (row.planner_name == nullptr || std::string_view(row.key) == "preset") {
                continue;
            }
            yaml += std::string("  ") + row.planner_name + ": " + samples().at(row.key) + "\n";
            read.push_back(&row);
        }
        QVERIFY(read.size() >= 10);
        const PlanRequest request = PlanRequest::fromYaml(yaml);
        for (const TrainOptionRow* row : read) {
            QVERIFY2(request.workload.value(row->key) ==
                         TrainOptions::parseValue(*row, samples().at(row->key)),
                     row->planner_name);
        }
    }
};

QTEST_GUILESS_MAIN(TestTrainOptionTable)
#include "test_train_option_table.moc"
