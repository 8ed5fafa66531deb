#include "train_option_set.h"

#include "cli_support.h"
#include "model/config_error.h"
#include "model/preset.h"
#include "run/byte_size.h"
#include "run/train_option_table.h"

#include <nlohmann/json.hpp>

#include <CLI/Validators.hpp>
#if __has_include(<CLI/ExtraValidators.hpp>)
#include <CLI/ExtraValidators.hpp>  // CLI11 2.6 moved IsMember here
#endif

#include <fstream>
#include <sstream>

namespace memscope::cli {

namespace {

// A choice of an enum's names (aliases the parser knows are accepted too).
template <typename Parse>
CLI::Validator choiceOf(const std::vector<std::string>& names, Parse parse) {
    std::string list;
    for (const auto& name : names) {
        list += (list.empty() ? "" : ", ") + name;
    }
    return CLI::Validator(
        [list, parse](std::string& value) -> std::string {
            return parse(value) ? std::string() : "unknown value '" + value + "' (" + list + ")";
        },
        "{" + list + "}");
}

// The option's range from the one table.
CLI::Range rangeOf(const char* key) {
    const TrainOptionSpec& spec = TrainOptionTable::integer(key);
    return CLI::Range(spec.min, spec.max);
}

}  // namespace

void TrainOptionSet::addTo(CLI::App& app) {
    auto* preset = app.add_option("--preset", m_preset, "Model and problem size preset")
                       ->check(CLI::IsMember(Preset::names()))
                       ->capture_default_str();
    auto* model_size =
        app.add_option("--model-size", m_modelSize,
                       "CS336 model size (small, medium, large, xl, 2.7B); same as --preset")
            ->check(CLI::IsMember({"small", "medium", "large", "xl", "2.7B"}));
    app.add_option("--options", m_optionsFile,
                   "Every option from a JSON file (a run's config, as `info --json` prints it); "
                   "options given beside it override its values")
        ->excludes(preset)
        ->excludes(model_size);
    app.add_option("--hidden-dim,--d-model", m_hidden, "Model hidden dimension")
        ->check(rangeOf("hidden_dim"));
    app.add_option("--num-layers,--n-layers", m_layers, "Number of transformer layers")
        ->check(rangeOf("num_layers"));
    app.add_option("--num-heads,--n-heads", m_heads, "Number of attention heads")
        ->check(rangeOf("num_heads"));
    app.add_option("--num-kv-heads,--n-kv-heads", m_kvHeads, "Number of key/value heads (GQA)")
        ->check(rangeOf("num_kv_heads"));
    app.add_option("--intermediate-dim,--d-ff", m_intermediate, "Feed-forward intermediate size")
        ->check(rangeOf("intermediate_dim"));
    app.add_option("--vocab-size", m_vocab, "Vocabulary size")->check(rangeOf("vocab_size"));
    app.add_option("--max-seq-len", m_maxSeq, "Longest sequence the model supports")
        ->check(rangeOf("max_seq_len"));
    app.add_option("--seq-len,--context-length", m_seq, "Sequence length")
        ->check(rangeOf("seq_len"));
    app.add_option("--batch-size", m_batch, "Samples per batch")->check(rangeOf("batch_size"));
    app.add_option("--num-steps", m_steps, "Timed steps (default 50)")->check(rangeOf("num_steps"));
    app.add_option("--warmup-steps", m_warmup, "Untimed steps run first (default 0)")
        ->check(rangeOf("warmup_steps"));
    app.add_option("--learning-rate", m_lr, "Optimizer learning rate (default 1e-4)");
    app.add_option("--seed", m_seed, "Random seed for weights and data (default 42)")
        ->check(rangeOf("seed"));
    app.add_option("--threads", m_threads,
                   "CPU threads (default: all cores, fewer while other processes keep cores busy)")
        ->check(rangeOf("threads"));
    app.add_option("--dtype", m_dtype, "fp32, or bf16 / fp16 autocast")
        ->check(choiceOf(dtypeNames(), parseDtype));
    app.add_flag("--use-amp,--use-mixed-precision", m_mixedPrecision, "Same as --dtype bf16");
    app.add_option("--attention", m_attention, "eager, fused, sdpa or memory-efficient")
        ->check(CLI::IsMember(attentionKindNames()));
    app.add_option("--checkpointing", m_checkpointing,
                   "Activation checkpointing: none or per-block")
        ->check(choiceOf(checkpointingNames(), parseCheckpointing));
    app.add_option("--profile-type", m_profile,
                   "training (forward+backward+step) or forward (also 'inference': "
                   "torch.no_grad, activations freed once used; not a forward with autograd on)")
        ->check(choiceOf(profileTypeNames(), parseProfileType));
    app.add_option("--optimizer", m_optimizer, "adamw or sgd")
        ->check(choiceOf(optimizerKindNames(), parseOptimizerKind));
    app.add_option("--device", m_device, "cpu, cuda or cuda:N");
    app.add_option("--device-memory-limit", m_memoryLimit,
                   "Make the CPU behave like a device of this size (e.g. 512MiB): allocations "
                   "past it fail with an out-of-memory error");
    auto* tie = app.add_flag("--tie-embeddings", m_tieFlag, "Share embedding and LM head weights");
    auto* untie = app.add_flag("--no-tie-embeddings", m_untieFlag, "Separate LM head weights");
    tie->excludes(untie);
}

TrainOptions TrainOptionSet::readOptionsFile() const {
    return optionsFromJson("--options", *m_optionsFile,
                           readJsonObject("--options", *m_optionsFile));
}

TrainOptions TrainOptionSet::resolve() const {
    TrainOptions o = m_optionsFile ? readOptionsFile()
                                   : TrainOptions::fromPreset(m_modelSize.value_or(m_preset));
    if (m_hidden)
        o.model.hidden_dim = *m_hidden;
    if (m_layers)
        o.model.n_layers = *m_layers;
    if (m_heads) {
        o.model.n_heads = *m_heads;
        // CS336-style shapes have no GQA: follow the heads unless KV heads are given too.
        if (!m_kvHeads && o.model.n_kv_heads > *m_heads)
            o.model.n_kv_heads = *m_heads;
    }
    if (m_kvHeads)
        o.model.n_kv_heads = *m_kvHeads;
    if (m_intermediate)
        o.model.intermediate_dim = *m_intermediate;
    if (m_vocab)
        o.model.vocab_size = *m_vocab;
    if (m_maxSeq)
        o.model.max_seq_len = *m_maxSeq;
    if (m_seq) {
        o.seq_len = *m_seq;
        if (!m_maxSeq)
            o.model.max_seq_len = std::max(o.model.max_seq_len, *m_seq);
    }
    if (m_batch)
        o.batch_size = *m_batch;
    if (m_steps)
        o.num_steps = *m_steps;
    if (m_warmup)
        o.warmup_steps = *m_warmup;
    if (m_lr)
        o.learning_rate = *m_lr;
    if (m_seed)
        o.seed = *m_seed;
    if (m_threads)
        o.threads = *m_threads;
    if (m_tieFlag)
        o.model.tie_embeddings = true;
    if (m_untieFlag)
        o.model.tie_embeddings = false;
    if (m_dtype && m_mixedPrecision && parseDtype(*m_dtype) == Dtype::Float32) {
        throw ConfigError("--use-mixed-precision", "contradicts --dtype " + *m_dtype);
    }
    if (m_mixedPrecision)
        o.dtype = Dtype::BFloat16;
    if (m_dtype)
        o.dtype = *parseDtype(*m_dtype);
    if (m_attention)
        o.attention = *parseAttentionKind(*m_attention);
    if (m_checkpointing)
        o.checkpointing = *parseCheckpointing(*m_checkpointing);
    if (m_profile)
        o.profile = *parseProfileType(*m_profile);
    if (m_optimizer)
        o.optimizer = *parseOptimizerKind(*m_optimizer);
    if (m_device)
        o.device = *m_device;
    if (m_memoryLimit) {
        const auto bytes = parseByteSize(*m_memoryLimit);
        if (!bytes || *bytes <= 0) {
            throw ConfigError("--device-memory-limit",
                              "'" + *m_memoryLimit + "' is not a size (try 512MiB or 2GiB)");
        }
        o.device_memory_limit = *bytes;
    }
    o.validate();
    return o;
}

}  // namespace memscope::cli
