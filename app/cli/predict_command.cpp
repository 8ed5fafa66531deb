#include "predict_command.h"

#include <CLI/Validators.hpp>
#if __has_include(<CLI/ExtraValidators.hpp>)
#include <CLI/ExtraValidators.hpp>  // CLI11 2.6 moved IsMember here
#endif

namespace memscope::cli {

PredictCommand::PredictCommand(CLI::App& parent) {
    m_app = parent.add_subcommand(
        "predict", "Predict memory, fit and training time before a run (the Planner)");
    m_app->add_option("model_type", m_modelType, "memprof-training form: model type (transformer)");
    m_app->add_option("size_billions", m_billions, "memprof-training form: size in billions")
        ->check(CLI::PositiveNumber);
    m_app->add_option("batch", m_batch, "memprof-training form: global batch size")
        ->check(CLI::PositiveNumber);
    m_options.addTo(*m_app);
    m_app
        ->add_option("--sequence-length", m_sequence,
                     "Sequence length (default 2048 in the "
                     "memprof form)")
        ->check(CLI::PositiveNumber);
    m_app->add_option("--config", m_config,
                      "YAML configuration (model, hardware, cluster, "
                      "distribution, analysis)");
    m_app->add_option("--output", m_output, "Write the result to FILE (.json, .csv, else text)");
    m_app->add_option("--format", m_format, "Format on standard output")
        ->check(CLI::IsMember({"text", "json", "csv"}));
    m_app->add_option("--device-db", m_deviceDb,
                      "Device database YAML (default: the installed "
                      "devices.yaml, or $MEMSCOPE_DEVICES)");
    m_app->add_option("--gpu-type,--device-type", m_gpuType,
                      "Device from the database (\"NVIDIA H100\", \"AMD MI300X\", CPU)");
    m_app->add_option("--gpus", m_gpus, "Number of GPUs")->check(CLI::PositiveNumber);
    m_app->add_option("--strategy", m_strategy,
                      "single, data_parallel, tensor_parallel, pipeline_parallel or hybrid");
    m_app->add_option("--dp", m_dp, "Data-parallel degree (hybrid)")->check(CLI::PositiveNumber);
    m_app->add_option("--tp", m_tp, "Tensor-parallel degree (hybrid)")->check(CLI::PositiveNumber);
    m_app->add_option("--pp", m_pp, "Pipeline-parallel degree (hybrid)")
        ->check(CLI::PositiveNumber);
    m_app->add_option("--zero-stage", m_zero, "ZeRO stage 0-3 (data parallel)");
    m_app
        ->add_option("--micro-batches", m_microBatches,
                     "Pipeline micro-batches per step (default 4 x pipeline degree)")
        ->check(CLI::PositiveNumber);
    m_app->add_option("--gpus-per-node", m_gpusPerNode, "GPUs per node (default 8)")
        ->check(CLI::PositiveNumber);
    m_app->add_option("--interconnect", m_interconnect,
                      "GPU link from the database (nvlink_4, pcie_5, ...)");
    m_app->add_option("--mfu", m_mfu, "Model FLOPs utilisation to assume (default 0.4)")
        ->check(CLI::Range(0.001, 1.0));
    m_app
        ->add_option("--train-tokens", m_trainTokens,
                     "Tokens to train on (default 20 per parameter)")
        ->check(CLI::PositiveNumber);
    m_app->add_option("--calibrate", m_calibrate,
                      "Take the MFU from a recorded run (.memscope) on the same kind of device");
    m_app->add_flag("--bottlenecks", m_bottlenecks,
                    "Bottleneck analysis and ranked recommendations");
    m_app->add_flag("--max-batch-size", m_maxBatch, "Search the largest batch that fits");
    m_app->add_flag("--grads-set-to-none", m_gradsSetToNone,
                    "Gradients freed by zero_grad() (PyTorch 2.x) instead of kept");
    m_app->add_flag("--verbose", m_verbose, "Also print the JSON result after the text");
    m_app->add_option("--fit", m_fit,
                      "Predict a Python program from the fit of its sweep: the directory of "
                      "`memscope-cli sweep --python`");
    m_app->add_option("--at", m_at,
                      "With --fit: the sizes to predict, e.g. d=2560,L=32,s=512,b=4,h=32,"
                      "d_ff=10240,vocab=10000");
    m_app->add_option("--check", m_check,
                      "With --fit: a recording of the program at the --at sizes (a run file, "
                      "snapshot, journal or run directory) to hold the prediction against, phase "
                      "by phase");
}

}  // namespace memscope::cli
