#include "predict/memory_model.h"

#include "memscope_version.h"
#include "run/size_limits.h"

#include "model/attention_chunk.h"
#include "model/config_error.h"
#include "model/model_cost.h"
#include "model/train_option_table.h"
#include "predict/memory_tape.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace memscope {

namespace {

using C = MemoryComponent;

// The sizes the walk needs, in elements unless named bytes.
struct Shape {
    int64_t B = 0, S = 0, T = 0;  // batch, sequence, tokens
    int64_t h = 0, kvd = 0, f = 0, V = 0, L = 0;
    int64_t H = 0, Hkv = 0, hd = 0, nrep = 1;
    int64_t e = 4;  // bytes of an activation element: 4 in fp32, 2 under autocast
    bool mixed = false;
    bool tied = true;
    bool quadratic = true;  // attention keeps the S x S probabilities (eager, fused, 1.x sdpa)
    // sdpa by a fused flash kernel (2.x: the CPU's, or a GPU's with Semantics::sdpa_is_flash):
    // out and log-sum-exp saved, a per-thread workspace on the CPU (threads > 0)
    bool flash = false;
    int64_t flash_threads = 0;
    bool mask = true;  // the model builds the additive causal mask (eager, fused)
    bool checkpoint = false;
    bool training = true;
    bool adamw = true;
    bool autograd2 = true;        // LibTorch 2.x's saved tensors (MemoryModel::Semantics)
    int64_t chunk_area = 0;       // largest rows x keys block of the memory-efficient attention
    std::vector<int64_t> params;  // parameter sizes in registration order (the optimizer's)
    int64_t block_params = 0;
    int64_t root_params = 0;  // embedding, final norm, untied head: ZeRO-3's root group
    // Data parallel (ParallelEngine): ranks, ZeRO stage, bucket size in elements.
    int64_t d = 1;
    int zero = 0;
    int64_t bucket = 0;
    bool parallel() const { return d > 1; }
    int64_t padded(int64_t n) const { return (n + d - 1) / d * d; }
};

// How a weight gradient leaves its MmBackward.
enum class WeightGrad {
    Accumulate,  // AccumulateGrad right away: added into .grad, or becomes .grad
    Pending,     // the tied LM head: waits in the embedding's input buffer
    Returned,    // checkpointing: returned by autograd::grad, accumulated after the block
};

// One step of the trainer, replayed on the tape. Each method mirrors the code of the module it
// is named after (core/model/*, core/train/trainer.cpp); the comments name the op.
class StepWalk {
  public:
    StepWalk(const Shape& s, MemoryTape& tape) : s(s), tape(tape) {}

    void init() {
        tape.setPhase(Phase::Init);
        const int64_t P = total(s.params);
        tape.alloc(C::Parameters, 4 * P);
        m_optimized = s.params;
        if (!s.parallel() || !s.training) {
            return;
        }
        // ParallelEngine::attach
        if (s.zero == 3) {
            m_optimized.clear();
            for (int64_t n : groups()) {
                const int64_t pad = s.padded(n);
                tape.alloc(C::Temporaries, 4 * pad);       // the gathered flat buffer
                tape.free(C::Parameters, 4 * n);           // the parameters become views of it
                tape.alloc(C::Parameters, 4 * pad / s.d);  // this rank's shard (a copy)
                tape.alloc(C::Gradients, 4 * pad / s.d);   // its gradient shard
                tape.free(C::Temporaries, 4 * pad);        // released until gathered
                m_optimized.push_back(pad / s.d);
            }
            return;
        }
        if (s.zero >= 1) {
            tape.alloc(C::Parameters, 4 * s.padded(P));  // the flat parameters
            tape.free(C::Parameters, 4 * P);             // the old storages
            m_optimized = {s.padded(P) / s.d};
        }
        if (s.zero <= 1) {
            tape.alloc(C::Gradients, 4 * s.padded(P));  // the flat gradients, .grad views of it
            m_gradsExist = true;
        } else {
            tape.alloc(C::Gradients, 4 * s.padded(P) / s.d);  // the gradient shard
        }
    }

    StepPrediction step(bool grads_set_to_none) {
        tape.resetPeak();
        tape.setPhase(Phase::Other);
        // SyntheticData: randint [B, S + 1], then contiguous inputs and labels; a rank draws the
        // global batch and keeps a copy of its rows.
        if (s.parallel()) {
            tape.alloc(C::Temporaries, 8 * s.B * s.d * (s.S + 1));
            tape.alloc(C::Temporaries, 8 * s.B * (s.S + 1));
            tape.free(C::Temporaries, 8 * s.B * s.d * (s.S + 1));
        } else {
            tape.alloc(C::Temporaries, 8 * s.B * (s.S + 1));
        }
        tape.alloc(C::Inputs, 16 * s.T);
        tape.free(C::Temporaries, 8 * s.B * (s.S + 1));
        if (s.training && grads_set_to_none && m_gradsExist) {
            tape.free(C::Gradients, tape.liveBytes()[static_cast<int>(C::Gradients)]);
            m_gradsExist = false;
        }

        tape.setPhase(Phase::Forward);
        if (zero3()) {
            gather(groups()[0]);  // the root group, gathered until the end of the backward
        }
        forward();
        StepPrediction result;
        result.end_of_forward = tape.live();
        result.at_end_of_forward = tape.liveBytes();

        if (s.training) {
            tape.setPhase(Phase::Backward);
            backward();
            m_gradsExist = true;
            if (s.parallel() && s.zero >= 2) {
                // ParallelEngine::afterBackward: the rest reduced to their owners, then freed
                // (ZeRO-3's blocks were reduced during the backward).
                reduceToOwners(zero3() ? groups()[0] : total(s.params));
                m_gradsExist = false;
                if (zero3()) {
                    tape.free(C::Temporaries, 4 * s.padded(groups()[0]));  // endStep: release
                }
            }
            tape.setPhase(Phase::Optimizer);
            optimizerStep();
            m_stateExists = true;
            if (s.parallel() && (s.zero == 1 || s.zero == 2)) {
                // all-gather of the updated shards into the flat parameters: Gloo gathers into
                // a new flat output and copies it into place.
                tape.spike(C::Temporaries, 4 * s.padded(total(s.params)));
            }
        }
        if (s.parallel()) {
            tape.spike(C::Temporaries, 8);  // the loss all-reduced in a double
        }
        tape.setPhase(Phase::Other);
        tape.free(C::LogitsLoss, 4);  // the loss scalar
        tape.free(C::Inputs, 16 * s.T);
        tape.free(C::AutocastCache, tape.liveBytes()[static_cast<int>(C::AutocastCache)]);

        result.peak = tape.peak();
        result.peak_phase = tape.peakPhase();
        result.at_peak = tape.peakBytes();
        result.forward_peak = tape.phasePeak(Phase::Forward);
        result.backward_peak = tape.phasePeak(Phase::Backward);
        result.optimizer_peak = tape.phasePeak(Phase::Optimizer);
        return result;
    }

  private:
    static int64_t total(const std::vector<int64_t>& v) {
        int64_t sum = 0;
        for (auto x : v) {
            sum += x;
        }
        return sum;
    }
    C keep(bool grad) const { return grad ? C::Activations : C::Temporaries; }
    int64_t th() const { return 4 * s.T * s.h; }  // one fp32 residual-stream tensor

    // ---------------------------------------------------------------- forward

    void forward() {
        const bool grad = s.training;
        tape.alloc(keep(grad), th());  // embedding output
        const C mask_component = (grad && s.checkpoint) ? C::Activations : C::Temporaries;
        if (s.mask) {
            tape.alloc(C::Temporaries, 4 * s.S * s.S);  // full(-inf)
            tape.alloc(mask_component, 4 * s.S * s.S);  // triu(1)
            tape.free(C::Temporaries, 4 * s.S * s.S);
        }
        for (int64_t i = 0; i < s.L; ++i) {
            if (zero3()) {
                gather(s.block_params);
            }
            if (!grad) {
                blockForward(false, true);
                releaseBlock();
                tape.free(C::Temporaries, th());  // the previous x
            } else if (s.checkpoint) {
                // BlockCheckpointFunction: the block runs without grad and outside the autocast
                // cache; its input stays saved, its output is the next block's saved input.
                blockForward(false, false);
                releaseBlock();
                tape.move(C::Temporaries, C::Activations, th());
            } else {
                blockForward(true, true);
                releaseBlock();
            }
        }
        headForward(grad, mask_component);
    }

    // RMSNorm::forward; the output is kept as `out` when something saves it.
    void rmsNorm(bool grad, C out) {
        const int64_t row = 4 * s.T;
        if (grad) {
            // x.pow(2): 1.x's MeanBackward keeps it until backward; 2.x frees it after the mean.
            tape.alloc(s.autograd2 ? C::Temporaries : C::Activations, th());
            tape.alloc(C::Temporaries, row);  // mean
            if (s.autograd2) {
                tape.free(C::Temporaries, th());
            }
            tape.alloc(C::Temporaries, row);   // + eps
            tape.alloc(C::Activations, row);   // rsqrt
            tape.alloc(C::Activations, th());  // x * rsqrt
            tape.free(C::Temporaries, row);
            tape.alloc(out, th());  // weight * x
            tape.free(C::Temporaries, row);
            return;
        }
        tape.alloc(C::Temporaries, th());  // pow
        tape.alloc(C::Temporaries, row);   // mean
        tape.free(C::Temporaries, th());
        tape.alloc(C::Temporaries, row);   // + eps
        tape.alloc(C::Temporaries, row);   // rsqrt
        tape.alloc(C::Temporaries, th());  // x * rsqrt
        tape.free(C::Temporaries, 2 * row);
        tape.alloc(C::Temporaries, th());  // weight * x
        tape.free(C::Temporaries, th());
        tape.free(C::Temporaries, row);
    }

    // at::linear on T rows. Under autocast the weight is cast (and cached when the cache is on)
    // and an fp32 input is cast per call; autograd saves that cast.
    void linear(int64_t in, int64_t out, bool fp32_input, bool grad, bool cache, C result) {
        int64_t weight_copy = 0;
        if (s.mixed) {
            if (cache) {
                tape.alloc(C::AutocastCache, 2 * in * out);
            } else {
                weight_copy = 2 * in * out;
                tape.alloc(C::Temporaries, weight_copy);
            }
        }
        const int64_t input_copy = (s.mixed && fp32_input) ? 2 * s.T * in : 0;
        if (input_copy > 0) {
            tape.alloc(keep(grad), input_copy);
        }
        tape.alloc(result, s.e * s.T * out);
        if (!grad && input_copy > 0) {
            tape.free(C::Temporaries, input_copy);
        }
        if (weight_copy > 0) {
            tape.free(C::Temporaries, weight_copy);
        }
    }

    // TransformerBlock::forward. The output is left as an activation (grad) or a temporary.
    void blockForward(bool grad, bool cache) {
        const C norm_out = (grad && !s.mixed) ? C::Activations : C::Temporaries;
        rmsNorm(grad, norm_out);
        attentionForward(grad, cache);
        tape.alloc(keep(grad), th());                // h = x + attention
        tape.free(C::Temporaries, s.e * s.T * s.h);  // o_proj output
        if (norm_out == C::Temporaries) {
            tape.free(C::Temporaries, th());
        }
        rmsNorm(grad, norm_out);
        feedForward(grad, cache);
        tape.alloc(keep(grad), th());                // h + feed_forward
        tape.free(C::Temporaries, s.e * s.T * s.h);  // down_proj output
        if (norm_out == C::Temporaries) {
            tape.free(C::Temporaries, th());
        }
        if (!grad) {
            tape.free(C::Temporaries, th());  // h
        }
    }

    // RotaryEmbedding::apply on one of q, k (x bytes): (x * cos + cat(-x2, x1) * sin).
    void ropeApply(int64_t x, C result) {
        tape.alloc(C::Temporaries, x / 2);  // -x2
        tape.alloc(C::Temporaries, x);      // cat
        tape.free(C::Temporaries, x / 2);
        tape.alloc(C::Temporaries, 2 * x);  // x * cos, rotated * sin
        tape.alloc(result, x);              // sum
        tape.free(C::Temporaries, 3 * x);
    }

    void attentionForward(bool grad, bool cache) {
        // The memory-efficient Function saves q, k and v; the flash kernel q and the k and v it
        // is given, which are repeated copies under GQA.
        const bool saves_q = grad && !s.quadratic;
        const bool saves_kv = saves_q && (!s.flash || s.nrep == 1);
        const int64_t q = s.e * s.T * s.h, kv = s.e * s.T * s.kvd;
        linear(s.h, s.h, true, grad, cache, C::Temporaries);
        linear(s.h, s.kvd, true, grad, cache, C::Temporaries);
        linear(s.h, s.kvd, true, grad, cache, saves_kv ? C::Activations : C::Temporaries);
        // RotaryEmbedding::forward: tables in float64, cast to the activation dtype
        const int64_t table = 8 * s.S * s.hd;
        tape.alloc(C::Temporaries, table / 2 + table);  // outer, cat
        for (int i = 0; i < 2; ++i) {                   // cos, sin
            tape.alloc(C::Temporaries, table);
            tape.alloc(keep(grad), s.e * s.S * s.hd);
            tape.free(C::Temporaries, table);
        }
        ropeApply(q, saves_q ? C::Activations : C::Temporaries);
        ropeApply(kv, saves_kv ? C::Activations : C::Temporaries);
        tape.free(C::Temporaries, table / 2 + table);
        if (!grad) {
            tape.free(C::Temporaries, 2 * s.e * s.S * s.hd);
        }
        tape.free(C::Temporaries, q + kv);  // q and k projections, replaced by the rotated ones
        if (s.quadratic) {
            quadraticCore(grad);
        } else if (s.flash) {
            flashCore(grad);
        } else {
            chunkedCore(grad);
        }
        // out.transpose(1, 2).contiguous(): a copy, except after the flash kernel, whose output
        // is laid out [B, S, H, hd] already (o_proj then reads, and saves, the kernel's output)
        if (!s.flash) {
            tape.alloc(keep(grad), q);
            if (!(grad && !s.quadratic)) {
                tape.free(C::Temporaries, q);  // the core's output (the Function saves it)
            }
        }
        linear(s.h, s.h, false, grad, cache, C::Temporaries);  // o_proj
        if (!grad) {
            tape.free(C::Temporaries, q);  // o_proj's input
        }
        // rotated q, k and the v projection, where nothing saved them
        tape.free(C::Temporaries, (saves_q ? 0 : q) + (saves_kv ? 0 : 2 * kv));
    }

    // The flash kernel's query and key blocks (FlashAttentionKernel.cpp in 2.x).
    int64_t flashQueryBlock() const {
        return std::min<int64_t>(s.S >= 768 ? 256 : s.S >= 192 ? 64 : 32, s.S);
    }
    int64_t flashKeyBlock() const { return std::min<int64_t>(512, s.S); }

    // sdpa by a flash kernel: repeat_interleave of k and v under GQA, then out and log-sum-exp
    // (both saved) and, on the CPU, a per-thread fp32 workspace (scores block, row maxima and
    // sums, the output block) with a reduced-precision scores block under autocast.
    void flashCore(bool grad) {
        const C k = keep(grad);
        const int64_t q = s.e * s.T * s.h;
        if (s.nrep > 1) {
            tape.alloc(k, 2 * q);  // k and v repeated: expand, then a contiguous clone
        }
        tape.alloc(k, q);                    // out
        tape.alloc(k, 4 * s.B * s.H * s.S);  // lse
        const int64_t qb = flashQueryBlock(), kb = flashKeyBlock();
        const int64_t n = s.flash_threads;
        tape.spike(C::Temporaries,
                   n * 4 * (qb * kb + 2 * qb + qb * s.hd) + (s.mixed ? n * 2 * qb * kb : 0));
        if (!grad) {
            tape.free(C::Temporaries, (s.nrep > 1 ? 2 * q : 0) + 4 * s.B * s.H * s.S);
        }
    }

    // Leaves the gradients of the rotated q, k and of v, as quadraticCoreBackward does.
    void flashCoreBackward() {
        const int64_t q = s.e * s.T * s.h, kv = s.e * s.T * s.kvd;
        const int64_t lse = 4 * s.B * s.H * s.S;
        const int64_t k_given = s.nrep > 1 ? q : kv;  // k and v as the kernel got them
        tape.alloc(C::Temporaries, q + 2 * k_given);  // grad q, k, v (zeros)
        const int64_t qb = flashQueryBlock(), kb = flashKeyBlock();
        const int64_t n = s.flash_threads;
        // fp32 blocks of the scores and their gradient, and a row sum, a thread
        tape.spike(C::Temporaries, n * 4 * (2 * qb * kb + qb) + (s.mixed ? n * 2 * qb * kb : 0));
        tape.free(C::Temporaries, q);                          // o_proj's input gradient
        tape.free(C::Activations, q + 2 * k_given + q + lse);  // q, k, v, out, lse
        if (s.nrep > 1) {
            for (int i = 0; i < 2; ++i) {  // ExpandBackward's sum for k and v
                tape.alloc(C::Temporaries, kv);
                tape.free(C::Temporaries, q);
            }
        }
    }

    // Eager attention: repeat_interleave, Q K^T / sqrt(d) + mask, softmax, P V.
    void quadraticCore(bool grad) {
        const C k = keep(grad);
        const int64_t q = s.e * s.T * s.h, kv = s.e * s.T * s.kvd;
        const int64_t p = s.B * s.H * s.S * s.S;
        if (s.nrep > 1) {
            for (int i = 0; i < 2; ++i) {  // k, v
                if (s.autograd2) {
                    tape.alloc(k, q);  // repeat_interleave: expand, then a contiguous clone
                    continue;
                }
                tape.alloc(k, 8 * s.H);          // repeat indices
                tape.alloc(C::Temporaries, kv);  // contiguous input of index_select
                tape.alloc(k, q);                // index_select
                tape.free(C::Temporaries, kv);
            }
        }
        tape.alloc(k, q);  // q reshaped for bmm (a copy: the rotated q is not contiguous)
        if (s.nrep == 1) {
            tape.alloc(k, q);  // k^T reshaped
        }
        tape.alloc(C::Temporaries, s.e * p);  // scores
        tape.alloc(C::Temporaries, s.e * p);  // / sqrt(d)
        tape.free(C::Temporaries, s.e * p);
        tape.alloc(C::Temporaries, 4 * p);  // + mask (fp32)
        tape.free(C::Temporaries, s.e * p);
        tape.alloc(k, 4 * p);  // softmax (fp32 under autocast too)
        tape.free(C::Temporaries, 4 * p);
        if (s.mixed) {
            tape.alloc(k, 2 * p);  // probabilities cast for P V
        }
        if (s.nrep == 1) {
            tape.alloc(k, q);  // v reshaped
        }
        tape.alloc(C::Temporaries, q);  // P V
        if (!grad) {
            tape.free(C::Temporaries, quadraticSaved());
        }
    }

    int64_t quadraticSaved() const {
        const int64_t q = s.e * s.T * s.h;
        const int64_t p = s.B * s.H * s.S * s.S;
        int64_t bytes = 4 * p + (s.mixed ? 2 * p : 0) + q;  // probabilities, their cast, q copy
        bytes += 2 * q;                                     // k and v at full width
        if (s.nrep > 1 && !s.autograd2) {
            bytes += 2 * 8 * s.H;  // repeat indices
        }
        return bytes;
    }

    // ChunkedAttentionFunction::forward: out and log-sum-exp, and one query block at a time.
    void chunkedCore(bool grad) {
        const C k = keep(grad);
        tape.alloc(k, s.e * s.T * s.h);      // out
        tape.alloc(k, 4 * s.B * s.H * s.S);  // lse
        const int64_t area = s.B * s.H * s.chunk_area;
        const int64_t rows = std::min<int64_t>(kAttentionChunkSize, s.S);
        const int64_t expand = s.nrep > 1 ? s.e * s.B * s.H * s.S * s.hd : 0;
        const int64_t pv = (s.mixed ? 2 * area : 0) + expand + s.e * s.B * s.H * rows * s.hd;
        tape.spike(C::Temporaries, std::max(8 * area, 4 * area + pv));
    }

    void feedForward(bool grad, bool cache) {
        const C k = keep(grad);
        const int64_t act = s.e * s.T * s.f;
        linear(s.h, s.f, true, grad, cache, k);                // gate
        linear(s.h, s.f, true, grad, cache, k);                // up
        tape.alloc(k, act);                                    // silu
        tape.alloc(k, act);                                    // * up
        linear(s.f, s.h, false, grad, cache, C::Temporaries);  // down
        if (!grad) {
            tape.free(C::Temporaries, 4 * act);
        }
    }

    void headForward(bool grad, C mask_component) {
        const C norm_out = (grad && !s.mixed) ? C::Activations : C::Temporaries;
        rmsNorm(grad, norm_out);
        if (!grad) {
            tape.free(C::Temporaries, th());  // the last block's output
        }
        linear(s.h, s.V, true, grad, true, C::LogitsLoss);  // lm_head (or the tied embedding)
        if (norm_out == C::Temporaries) {
            tape.free(C::Temporaries, th());
        }
        if (s.mask && mask_component == C::Temporaries) {
            tape.free(C::Temporaries, 4 * s.S * s.S);
        }
        const int64_t tv = 4 * s.T * s.V;
        if (s.mixed) {
            tape.alloc(C::LogitsLoss, tv);  // cross_entropy in fp32
        }
        tape.alloc(C::LogitsLoss, tv);  // log_softmax
        tape.alloc(C::LogitsLoss, 4);   // the loss
        tape.alloc(keep(grad), 4);      // total weight
        if (!grad) {
            tape.free(C::Temporaries, 4);
            tape.free(C::LogitsLoss, tv);
        }
        if (s.mixed) {
            tape.free(C::LogitsLoss, tv);
        }
        tape.free(C::LogitsLoss, s.e * s.T * s.V);  // logits go out of scope
    }

    // ---------------------------------------------------------------- backward

    void finishWeightGrad(int64_t bytes, WeightGrad mode) {
        if (mode != WeightGrad::Accumulate) {
            return;
        }
        if (m_gradsExist) {
            tape.free(C::Temporaries, bytes);  // added into .grad in place
        } else {
            tape.move(C::Temporaries, C::Gradients, bytes);  // becomes .grad
        }
    }

    // MmBackward0 of a linear whose output gradient (grad_out bytes, freed here when > 0) is
    // alive. Leaves the input gradient (fp32 when the input was fp32) as a temporary.
    void linearBackward(int64_t in, int64_t out, bool fp32_input, int64_t grad_out,
                        WeightGrad mode) {
        const int64_t n = in * out;
        tape.alloc(C::Temporaries, s.e * n);         // weight gradient
        tape.alloc(C::Temporaries, s.e * s.T * in);  // input gradient
        if (grad_out > 0) {
            tape.free(C::Temporaries, grad_out);
        }
        if (s.mixed && fp32_input) {
            tape.free(C::Activations, 2 * s.T * in);  // the saved input cast
        }
        if (s.mixed) {
            tape.alloc(C::Temporaries, 4 * n);  // the weight cast's backward: back to fp32
            tape.free(C::Temporaries, 2 * n);
        }
        m_returned += (mode == WeightGrad::Returned) ? 4 * n : 0;
        m_pending += (mode == WeightGrad::Pending) ? 4 * n : 0;
        finishWeightGrad(4 * n, mode);
        if (s.mixed && fp32_input) {
            tape.alloc(C::Temporaries, 4 * s.T * in);
            tape.free(C::Temporaries, 2 * s.T * in);
        }
    }

    // RMSNorm backward with its output gradient alive; leaves the input gradient in its place.
    void rmsNormBackward(WeightGrad mode) {
        tape.spike(C::Temporaries, 2 * th());
        tape.alloc(C::Temporaries, 4 * s.h);  // weight gradient
        m_returned += (mode == WeightGrad::Returned) ? 4 * s.h : 0;
        finishWeightGrad(4 * s.h, mode);
        // x * rsqrt, rsqrt, and in 1.x the square of x
        tape.free(C::Activations, (s.autograd2 ? 1 : 2) * th() + 4 * s.T);
    }

    // Adds two fp32 residual-stream gradients into a new one.
    void sumGradients() {
        tape.alloc(C::Temporaries, th());
        tape.free(C::Temporaries, 2 * th());
    }

    void backward() {
        m_pending = 0;
        const int64_t tv = 4 * s.T * s.V;
        tape.alloc(C::Temporaries, 4);   // d loss
        tape.alloc(C::Temporaries, tv);  // nll_loss_backward
        tape.free(C::Activations, 4);
        tape.free(C::Temporaries, 4);
        tape.alloc(C::Temporaries, tv);  // log_softmax_backward
        tape.free(C::Temporaries, tv);
        tape.free(C::LogitsLoss, tv);
        int64_t grad_logits = tv;
        if (s.mixed) {
            tape.alloc(C::Temporaries, 2 * s.T * s.V);
            tape.free(C::Temporaries, tv);
            grad_logits = 2 * s.T * s.V;
        }
        linearBackward(s.h, s.V, true, grad_logits,
                       s.tied ? WeightGrad::Pending : WeightGrad::Accumulate);
        if (!s.mixed) {
            tape.free(C::Activations, th());  // the final norm's output
        }
        rmsNormBackward(WeightGrad::Accumulate);
        tape.free(C::Activations, th());  // the last block's output
        for (int64_t i = 0; i < s.L; ++i) {
            if (zero3()) {
                // The hook on this block's output: the block after it (done) is reduced to its
                // owners and released, this one gathered.
                if (i > 0) {
                    reduceToOwners(s.block_params);
                    tape.free(C::Temporaries, 4 * s.padded(s.block_params));
                }
                gather(s.block_params);
            }
            if (s.checkpoint) {
                checkpointedBlockBackward();
            } else {
                blockBackward(WeightGrad::Accumulate, true);
            }
        }
        if (zero3() && s.L > 0) {
            // The hook on the first block's input: its backward is done.
            reduceToOwners(s.block_params);
            tape.free(C::Temporaries, 4 * s.padded(s.block_params));
        }
        if (s.mask && s.checkpoint) {
            tape.free(C::Activations, 4 * s.S * s.S);
        }
        // embedding_dense_backward
        const int64_t table = 4 * s.V * s.h;
        tape.alloc(C::Temporaries, table);
        tape.free(C::Temporaries, th());
        if (s.tied) {
            tape.alloc(C::Temporaries, table);  // + the LM head's gradient
            tape.free(C::Temporaries, table + m_pending);
        }
        finishWeightGrad(table, WeightGrad::Accumulate);
    }

    void checkpointedBlockBackward() {
        m_returned = 0;
        blockForward(true, true);  // recomputation with grad (and the autocast cache on)
        blockBackward(WeightGrad::Returned, false);
        tape.free(C::Activations, th());  // the recomputed output
        finishWeightGrad(m_returned, WeightGrad::Accumulate);
        tape.free(C::Activations, th());  // the saved block input
    }

    void blockBackward(WeightGrad mode, bool frees_input) {
        const int64_t act = s.e * s.T * s.f;
        const int64_t q = s.e * s.T * s.h, kv = s.e * s.T * s.kvd;
        // feed-forward: down(silu(gate) * up)
        linearBackward(s.f, s.h, false, 0, mode);  // the output gradient also feeds the residual
        tape.free(C::Activations, act);            // silu * up
        tape.alloc(C::Temporaries, 2 * act);       // MulBackward
        tape.free(C::Activations, act);            // silu
        tape.free(C::Temporaries, act);            // down's input gradient
        tape.free(C::Activations, act);            // up
        tape.alloc(C::Temporaries, act);           // SiluBackward
        tape.free(C::Temporaries, act);
        tape.free(C::Activations, act);             // gate
        linearBackward(s.h, s.f, true, act, mode);  // up
        linearBackward(s.h, s.f, true, act, mode);  // gate
        if (!s.mixed) {
            tape.free(C::Activations, th());  // ffn_norm output
        }
        sumGradients();
        rmsNormBackward(mode);
        tape.free(C::Activations, th());  // h
        sumGradients();                   // residual
        // attention
        linearBackward(s.h, s.h, false, 0, mode);  // o_proj
        if (!s.flash) {
            tape.free(C::Activations, q);  // its contiguous input (the flash kernel's out: saved)
        }
        if (s.quadratic) {
            quadraticCoreBackward();
        } else if (s.flash) {
            flashCoreBackward();
        } else {
            chunkedCoreBackward();
        }
        // RoPE backward and the reshape of each gradient back to [B, S, D]
        tape.spike(C::Temporaries, 2 * q);
        tape.spike(C::Temporaries, 2 * kv);
        tape.free(C::Activations, 2 * s.e * s.S * s.hd);  // cos, sin
        linearBackward(s.h, s.kvd, true, kv, mode);       // v
        linearBackward(s.h, s.kvd, true, kv, mode);       // k
        sumGradients();
        linearBackward(s.h, s.h, true, q, mode);  // q
        sumGradients();
        if (!s.mixed) {
            tape.free(C::Activations, th());  // attention_norm output
        }
        rmsNormBackward(mode);
        if (frees_input) {
            tape.free(C::Activations, th());
        }
        sumGradients();  // residual
    }

    // Leaves the gradients of the rotated q, k and of v.
    void quadraticCoreBackward() {
        const int64_t q = s.e * s.T * s.h, kv = s.e * s.T * s.kvd;
        const int64_t p = s.B * s.H * s.S * s.S;
        tape.alloc(C::Temporaries, q);        // d v (full width)
        tape.alloc(C::Temporaries, s.e * p);  // d probabilities
        tape.free(C::Temporaries, q);         // o_proj's input gradient
        tape.free(C::Activations, q);         // v
        if (s.mixed) {
            tape.free(C::Activations, 2 * p);
            tape.alloc(C::Temporaries, 4 * p);
            tape.free(C::Temporaries, 2 * p);
        }
        tape.alloc(C::Temporaries, 4 * p);  // softmax backward
        tape.free(C::Temporaries, 4 * p);
        tape.free(C::Activations, 4 * p);
        if (s.mixed) {
            tape.alloc(C::Temporaries, 2 * p);
            tape.free(C::Temporaries, 4 * p);
        }
        tape.alloc(C::Temporaries, s.e * p);  // / sqrt(d) backward
        tape.free(C::Temporaries, s.e * p);
        tape.alloc(C::Temporaries, 2 * q);  // d q, d k^T
        tape.free(C::Temporaries, s.e * p);
        tape.free(C::Activations, 2 * q);  // q copy, k
        if (s.nrep > 1) {
            for (int i = 0; i < 2; ++i) {  // repeat_interleave backward for k and v
                tape.alloc(C::Temporaries, kv);
                tape.free(C::Temporaries, q);
            }
            if (!s.autograd2) {
                tape.free(C::Activations, 2 * 8 * s.H);  // repeat indices
            }
        }
    }

    void chunkedCoreBackward() {
        const int64_t q = s.e * s.T * s.h, kv = s.e * s.T * s.kvd;
        const int64_t q32 = 4 * s.T * s.h, kv32 = 4 * s.T * s.kvd;
        const int64_t lse = 4 * s.B * s.H * s.S;
        tape.alloc(C::Temporaries, q);  // grad_out.contiguous()
        if (s.mixed) {
            tape.alloc(C::Temporaries, 2 * q32);  // grad_out and out in fp32
        }
        tape.alloc(C::Temporaries, q32);  // their product
        tape.alloc(C::Temporaries, lse);  // delta
        tape.free(C::Temporaries, q32 + (s.mixed ? 2 * q32 : 0));
        tape.alloc(C::Temporaries, q32 + 2 * kv32);  // dq, dk, dv
        const int64_t area = s.B * s.H * s.chunk_area;
        const int64_t rows = std::min<int64_t>(kAttentionChunkSize, s.S);
        const int64_t keys = 4 * s.B * s.H * s.S * s.hd;
        const int64_t go = s.mixed ? 4 * s.B * s.H * rows * s.hd : 0;
        tape.spike(C::Temporaries, go + 8 * area + keys + keys / s.nrep * (s.mixed ? 2 : 1));
        if (s.mixed) {
            tape.alloc(C::Temporaries, q + 2 * kv);  // cast back to bf16
            tape.free(C::Temporaries, q32 + 2 * kv32);
        }
        tape.free(C::Temporaries, q + lse);               // grad_out copy, delta
        tape.free(C::Temporaries, q);                     // o_proj's input gradient
        tape.free(C::Activations, 2 * q + 2 * kv + lse);  // q, k, v, out, lse
    }

    // ---------------------------------------------------------------- optimizer

    void optimizerStep() {
        for (auto n : m_optimized) {
            if (s.adamw) {
                if (!m_stateExists) {
                    tape.alloc(C::OptimizerState, 8 * n);  // exp_avg, exp_avg_sq
                }
                // denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                tape.spike(C::Temporaries, 8 * n + 16);
            } else if (!m_stateExists) {
                tape.alloc(C::OptimizerState, 4 * n);  // momentum buffer
            }
        }
    }

    bool zero3() const { return s.parallel() && s.zero == 3 && s.training; }
    // ZeRO-3's parameter groups: the root group, then one per block.
    std::vector<int64_t> groups() const {
        std::vector<int64_t> g{s.root_params};
        g.insert(g.end(), size_t(s.L), s.block_params);
        return g;
    }
    // ParallelEngine::gather: the group's flat storage comes back; Gloo's all-gather fills a
    // new flat output first and copies it in.
    void gather(int64_t n) {
        tape.alloc(C::Temporaries, 4 * s.padded(n));
        tape.spike(C::Temporaries, 4 * s.padded(n));
    }
    // ParallelEngine::reduceGradientsToOwners over a group of n elements: one zeroed bucket at
    // a time gathers the gradients, is reduced and copied into the shard; then the group's
    // gradients are freed.
    void reduceToOwners(int64_t n) {
        // Buckets are full-size but for the last: the first is the largest.
        tape.spike(C::Temporaries, 4 * std::min(s.bucket, s.padded(n)));
        tape.free(C::Gradients, 4 * n);
    }

    // ParallelEngine::afterBlock: ZeRO-3 frees the gathered block (its storage, which the views
    // autograd saved share).
    void releaseBlock() {
        if (zero3()) {
            tape.free(C::Temporaries, 4 * s.padded(s.block_params));
        }
    }

    const Shape& s;
    MemoryTape& tape;
    std::vector<int64_t> m_optimized;  // the tensors the optimizer updates, in elements
    bool m_gradsExist = false;
    bool m_stateExists = false;
    int64_t m_returned = 0;
    int64_t m_pending = 0;
};

Shape makeShape(const TrainOptions& o, const MemoryModel::Semantics& semantics) {
    const auto& c = o.model;
    Shape s;
    s.B = o.batch_size;
    s.S = o.seq_len;
    s.T = s.B * s.S;
    s.h = c.hidden_dim;
    s.kvd = c.kvDim();
    s.f = c.intermediate_dim;
    s.V = c.vocab_size;
    s.L = c.n_layers;
    s.H = c.n_heads;
    s.Hkv = c.n_kv_heads;
    s.hd = c.headDim();
    s.nrep = s.H / s.Hkv;
    s.mixed = o.dtype != Dtype::Float32;
    s.e = s.mixed ? 2 : 4;
    s.tied = c.tie_embeddings;
    s.autograd2 = semantics.libtorch_major >= 2;
    // LibTorch 2.x runs sdpa on the CPU with its flash kernel too (at::_scaled_dot_product_
    // flash_attention_for_cpu); 1.13 had only the math path, which keeps the probabilities.
    const bool cpu_flash = o.attention == AttentionKind::Sdpa && s.autograd2 &&
                           !semantics.sdpa_is_flash && o.device == "cpu";
    s.flash = o.attention == AttentionKind::Sdpa && (semantics.sdpa_is_flash || cpu_flash);
    s.flash_threads =
        cpu_flash
            ? std::max(1, o.threads > 0 ? o.threads : int(std::thread::hardware_concurrency()))
            : 0;
    s.quadratic = o.attention != AttentionKind::MemoryEfficient && !s.flash;
    s.mask = o.attention == AttentionKind::Eager || o.attention == AttentionKind::Fused;
    s.checkpoint = o.checkpointing == Checkpointing::PerBlock;
    s.training = o.training();
    s.adamw = o.optimizer == OptimizerKind::AdamW;
    const int64_t chunk = std::min<int64_t>(kAttentionChunkSize, s.S);
    for (int64_t begin = 0; begin < s.S; begin += chunk) {
        const int64_t rows = std::min(chunk, s.S - begin);
        s.chunk_area = std::max(s.chunk_area, rows * (begin + rows));
    }
    // Registration order: embedding, then per block attention_norm, q, k, v (or qkv), o,
    // ffn_norm, gate, up (or gate_up), down; the final norm; the LM head when untied.
    s.params.push_back(s.V * s.h);
    for (int64_t i = 0; i < s.L; ++i) {
        s.params.push_back(s.h);
        if (o.attention == AttentionKind::Fused) {
            s.params.push_back(s.h * (s.h + 2 * s.kvd));
        } else {
            s.params.insert(s.params.end(), {s.h * s.h, s.h * s.kvd, s.h * s.kvd});
        }
        s.params.push_back(s.h * s.h);
        s.params.push_back(s.h);
        if (o.attention == AttentionKind::Fused) {
            s.params.push_back(2 * s.h * s.f);
        } else {
            s.params.insert(s.params.end(), {s.h * s.f, s.h * s.f});
        }
        s.params.push_back(s.f * s.h);
    }
    s.params.push_back(s.h);
    if (!s.tied) {
        s.params.push_back(s.V * s.h);
    }
    s.block_params = ModelCost::parameters(c).per_layer;
    s.root_params = s.V * s.h + s.h + (s.tied ? 0 : s.V * s.h);
    return s;
}

}  // namespace

int MemoryModel::Semantics::defaultLibTorchMajor() {
    return MEMSCOPE_LIBTORCH_MAJOR;
}

std::string MemoryModel::Semantics::autogradName() const {
    return libtorch_major >= 2 ? "LibTorch 2.x autograd" : "LibTorch 1.13 autograd";
}

MemoryPrediction MemoryModel::predict(const TrainOptions& options) {
    return predict(options, Semantics{});
}

MemoryPrediction MemoryModel::predict(const TrainOptions& options, const Semantics& semantics) {
    return predict(options, semantics, DataParallel{});
}

MemoryPrediction MemoryModel::predict(const TrainOptions& options, const Semantics& semantics,
                                      const DataParallel& parallel) {
    if (parallel.ranks < 1) {
        throw ConfigError("--nproc", "must be at least 1");
    }
    if (parallel.zero_stage < 0 || parallel.zero_stage > 3) {
        throw ConfigError("--zero-stage", "must be 0, 1, 2 or 3");
    }
    options.model.validate();
    options.model.validateSequence(options.seq_len);
    if (options.batch_size < 1) {
        throw ConfigError(TrainOptionTable::flag("batch_size"), "must be at least 1");
    }
    SizeLimits::check(options);
    Shape shape = makeShape(options, semantics);
    shape.d = parallel.ranks;
    shape.zero = parallel.zero_stage;
    shape.bucket = std::max<int64_t>(1, parallel.bucket_bytes / 4);
    MemoryTape tape;
    StepWalk walk(shape, tape);
    MemoryPrediction prediction;
    prediction.parameters = ModelCost::parameters(options.model).total();
    walk.init();
    prediction.init_bytes = tape.peak();
    prediction.first_step = walk.step(semantics.grads_set_to_none);
    prediction.steady_step =
        options.training() ? walk.step(semantics.grads_set_to_none) : prediction.first_step;
    return prediction;
}

}  // namespace memscope
