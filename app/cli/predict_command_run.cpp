#include "predict_command.h"

#include "cli_support.h"
#include "device/device_discovery.h"
#include "device/peak_flops.h"
#include "model/config_error.h"
#include "model/train_option_table.h"
#include "predict/model_shapes.h"
#include "predict/plan_report.h"
#include "predict/planner.h"
#include "source/run_source.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>

namespace memscope::cli {

int PredictCommand::run() {
    PlanResult result;
    try {
        PlanRequest request;
        if (!m_config.empty()) {
            if (m_modelType) {
                throw ConfigError("--config",
                                  "give either a configuration file or the "
                                  "memprof form, not both");
            }
            request = PlanRequest::fromYamlFile(m_config);
        } else {
            // The shared option set validates for a run on this machine, where fp16 autocast
            // is refused; a plan is for the device named by --gpu-type, so resolve it as a
            // GPU run.
            auto* dtype = m_app->get_option(TrainOptionTable::flag("dtype"));
            auto* device = m_app->get_option(TrainOptionTable::flag("device"));
            if (dtype->count() > 0 && device->count() == 0 &&
                parseDtype(dtype->as<std::string>()) == Dtype::Float16) {
                device->add_result("cuda");
                device->run_callback();
            }
            request.workload = m_options.resolve();
            auto& o = request.workload;
            if (m_modelType) {
                if (*m_modelType != "transformer" && *m_modelType != "transformer_decoder") {
                    throw ConfigError(
                        "model_type",
                        "only transformer decoders are modelled, not '" + *m_modelType + "'");
                }
                if (!m_billions) {
                    throw ConfigError("size_billions", "the memprof form needs the model size");
                }
                if (!m_batch) {
                    throw ConfigError("batch", "the memprof form needs the batch size");
                }
                o.preset = "custom";
                o.seq_len = m_sequence.value_or(2048);
                o.model = ModelShapes::forBillions(*m_billions, o.seq_len);
                o.batch_size = *m_batch;
                if (m_app->count(TrainOptionTable::flag("dtype")) == 0 &&
                    m_app->count("--use-amp") == 0) {
                    o.dtype = Dtype::BFloat16;
                }
                request.device = "NVIDIA H100";
            } else {
                if (m_billions || m_batch) {
                    throw ConfigError("model_type", "the memprof form starts with the model type");
                }
                if (m_sequence) {
                    o.seq_len = *m_sequence;
                }
                if (m_batch) {
                    o.batch_size = *m_batch;
                }
            }
            o.model.max_seq_len = std::max(o.model.max_seq_len, o.seq_len);
            request.bottlenecks = m_bottlenecks;
            request.max_batch = m_maxBatch;
        }
        request.bottlenecks = request.bottlenecks || m_bottlenecks;
        request.max_batch = request.max_batch || m_maxBatch;
        request.semantics.grads_set_to_none =
            request.semantics.grads_set_to_none || m_gradsSetToNone;
        if (m_gpuType) {
            request.device = *m_gpuType;
        } else if (m_config.empty()) {
            // No device named: plan for the GPU in this machine when the database knows it.
            DeviceDiscovery::Options options;
            options.measure_peaks = false;
            options.device_db = m_deviceDb;
            const auto detected = DeviceDiscovery::discover(options).plannerDefault();
            if (!detected.empty()) {
                request.device = detected;
                std::cerr << "memscope-cli: note: planning for this machine's " << detected
                          << " (--gpu-type to choose another device)\n";
            }
        }
        auto& p = request.parallel;
        if (m_gpus) {
            p.gpus = *m_gpus;
        }
        if (m_strategy) {
            const auto s = parseParallelStrategy(*m_strategy);
            if (!s) {
                throw ConfigError("--strategy",
                                  "single, data_parallel, tensor_parallel, "
                                  "pipeline_parallel or hybrid, not '" +
                                      *m_strategy + "'");
            }
            p.strategy = *s;
        }
        if (m_dp || m_tp || m_pp) {
            p.strategy = m_strategy ? p.strategy : ParallelStrategy::Hybrid;
            p.data = m_dp.value_or(0);
            p.tensor = m_tp.value_or(0);
            p.pipeline = m_pp.value_or(0);
            if (!m_gpus) {
                p.gpus = std::max(1, p.data) * std::max(1, p.tensor) * std::max(1, p.pipeline);
            }
        }
        if (m_zero) {
            p.zero_stage = *m_zero;
        }
        if (m_microBatches) {
            p.micro_batches = *m_microBatches;
        }
        if (m_gpusPerNode) {
            p.gpus_per_node = *m_gpusPerNode;
        }
        if (m_interconnect) {
            p.interconnect = *m_interconnect;
        }
        if (m_mfu) {
            request.mfu = *m_mfu;
            request.mfu_source = "given with --mfu";
        }
        if (m_trainTokens) {
            request.train_tokens = *m_trainTokens;
        }
        Planner planner(DeviceDatabase::loadDefault(m_deviceDb), &PeakFlops::measureCpu);
        if (!m_calibrate.empty()) {
            Trace trace;
            try {
                // Any run Memscope opens: a run file, a rank of a run directory, a journal.
                trace = RunSource(m_calibrate).open(RunSource::Options{});
            } catch (const std::exception& e) {
                throw ConfigError("--calibrate", e.what());
            }
            const double measured = trace.summary.value("mfu", 0.0);
            const bool run_on_gpu = trace.meta.device.rfind("cuda", 0) == 0;
            if (measured <= 0) {
                throw ConfigError("--calibrate", m_calibrate + " has no measured MFU");
            }
            if (run_on_gpu == planner.device(request.device).gpu) {
                request.mfu = measured;
                request.mfu_source = "calibrated from " + m_calibrate;
            } else {
                std::cerr << "memscope-cli: note: " << m_calibrate << " ran on "
                          << trace.meta.device << "; its MFU is not used for " << request.device
                          << "\n";
            }
        }
        result = planner.plan(request);
    } catch (const ConfigError& e) {
        return reportUsageError(e.what());
    }

    const auto stdout_format = m_format == "json"  ? PlanReport::Format::Json
                               : m_format == "csv" ? PlanReport::Format::Csv
                                                   : PlanReport::Format::Text;
    std::cout << PlanReport::render(result, stdout_format);
    if (m_verbose && stdout_format == PlanReport::Format::Text) {
        std::cout << "\n" << PlanReport::json(result);
    }
    if (!m_output.empty()) {
        std::ofstream out(m_output);
        if (!out) {
            return fail("--output: cannot write '" + m_output + "'");
        }
        out << PlanReport::render(result, PlanReport::formatForPath(m_output));
        std::cerr << "Wrote " << m_output << "\n";
    }
    return 0;
}

}  // namespace memscope::cli
