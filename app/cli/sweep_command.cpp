#include "sweep_command.h"

#include "model/train_option_table.h"
#include "studies/seed_tables.h"

#include <CLI/Validators.hpp>
#if __has_include(<CLI/ExtraValidators.hpp>)
#include <CLI/ExtraValidators.hpp>  // CLI11 2.6 moved IsMember here
#endif

namespace memscope::cli {

SweepCommand::SweepCommand(CLI::App& parent) {
    m_app = parent.add_subcommand(
        "sweep",
        "Run a scaling sweep: one recorded run per point (of a Python program: sweep --out DIR "
        "--python SCRIPT.py ARGS-with-{NAME} --grid NAME=V1,V2 ...)");
    m_options.addTo(*m_app);
    // The single-value forms of these become lists here.
    for (const char* key : {"attention", "checkpointing"}) {
        m_app->remove_option(m_app->get_option(TrainOptionTable::flag(key)));
    }
    m_app->add_option("--batch-sizes", m_batchSizes, "Batch sizes, e.g. 4,8,16");
    m_app->add_option("--seq-lens,--context-lengths", m_seqLens, "Sequence lengths, e.g. 64,128");
    m_app->add_option("--presets,--model-sizes", m_presets, "Presets, e.g. study-tiny,study-small");
    m_app->add_option("--dtypes", m_dtypes, "Precisions, e.g. fp32,bf16");
    m_app->add_option(TrainOptionTable::flag("attention"), m_attention,
                      "Attention variants, e.g. eager,memory-efficient");
    m_app->add_option(TrainOptionTable::flag("checkpointing"), m_checkpointing,
                      "Activation checkpointing: off,on (or none,per-block)");
    m_app->add_option("--profile-types", m_profiles, "training,forward");
    m_app
        ->add_option("--steps", m_steps,
                     "Timed steps per point (default: " + TrainOptionTable::flag("num_steps") + ")")
        ->check(CLI::PositiveNumber);
    m_app->add_option("--capacity", m_capacity,
                      "Emulated device capacity per point (e.g. 1GiB): larger points run out of "
                      "memory and are marked OOM");
    m_app
        ->add_option("--mode", m_mode,
                     "grid: every combination; axes: batch sizes at the base sequence length "
                     "and sequence lengths at the base batch size")
        ->check(CLI::IsMember({"grid", "axes"}));
    m_app->add_flag("--axes", m_axes, "Same as --mode axes");
    m_app->add_option("--config", m_config, "A YAML sweep file (batch_sizes: [4, 8], ...)");
    m_app->add_option("--out,-o", m_out, "Directory for the run files and sweep.json")
        ->capture_default_str();
    m_app->add_option("--table", m_tables, "Tables to print and export (repeatable)")
        ->check(CLI::IsMember(SeedTables::names()));
    m_app->add_option("--csv", m_csv,
                      "Write the tables as CSV (one table: FILE; several: FILE-<table>.csv)");
    m_app->add_option("--markdown", m_markdown, "Write the tables and exponents as Markdown");
}

}  // namespace memscope::cli
