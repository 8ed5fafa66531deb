#pragma once

#include "analysis/table_exporter.h"
#include "studies/sweep_result.h"

#include <string>
#include <vector>

namespace memscope {

// The exercise tables of the seed documents, filled from a sweep's points:
//   Points           every point: settings, status, peaks (step 1 and later steps), average,
//                    speed, memory per token
//   Seed000Step1     workshop exercise 2 step 1: Batch Size | Peak Memory (MB) | Avg Memory (MB)
//                    | Training Speed (samples/sec), for the settings swept over >= 2 batch sizes
//   Seed000Step3     step 3: Seq Length | Batch Size | Peak Memory (MB) | Memory per Token |
//                    Scaling Pattern; one batch size per length (the one most lengths share; the
//                    workshop's own table uses batch 4 at 512), the pattern is the exponent of the
//                    input-dependent memory per sample from the previous row
//   Seed002Sizes     performance study section 6: Problem Size | Parameters | Throughput
//                    (samples/s) | Memory (MB) | Time/Iter (s), one row per preset
//   Seed003b         CS336 question (b): per context length, the peak of a forward pass and of a
//                    full training step
//   Seed003c         question (c): the same peaks in fp32 and with bf16 mixed precision
// When several settings (attention variants, dtypes, ...) form separate groups, a first column
// "Setting" names each group. Out-of-memory points read "OOM"; missing combinations "—".
// MB = 1024^2 bytes. Raw units (CSV) keep more digits; Readable (Markdown) one decimal.
class SeedTables {
  public:
    enum class Kind { Points, Seed000Step1, Seed000Step3, Seed002Sizes, Seed003b, Seed003c };

    // "points", "seed000" (both step tables), "seed000-step1", "seed000-step3", "seed002",
    // "seed003b", "seed003c"; empty when the name is none of them.
    static std::vector<Kind> parse(const std::string& name);
    static std::vector<std::string> names();
    static std::string title(Kind kind);

    static TableExporter::Table make(Kind kind, const SweepResult& result,
                                     TableExporter::Units units);
    // The setting a run of `options` is listed under in table `kind` (its Setting column): the
    // options that do not vary inside the table's groups, "study-tiny, seq 128, fp32, eager".
    static std::string setting(Kind kind, const TrainOptions& options);
    // What a table's columns mean, said under it (the sweep's Markdown and the report); empty
    // when its headers say it all.
    static std::string note(Kind kind);
    // A Markdown section per table (title, table, a note when it has no rows), then the fitted
    // exponents of every batch and sequence series.
    static std::string markdown(const SweepResult& result, const std::vector<Kind>& kinds);
    // The fitted exponents as text lines, one per series.
    static std::string exponentsText(const SweepResult& result);
};

}  // namespace memscope
