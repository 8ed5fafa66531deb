<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>TimelineAnnotationPainter</name>
    <message>
        <source>Steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recomputation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Annotations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 – %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimelineColors</name>
    <message>
        <source>initialisation (no module)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no module)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other modules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each allocation its own colour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summarized (%1 smaller allocations)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimelineFramePainter</name>
    <message>
        <source>s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s to %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wall time since the run started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocation and free events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active memory timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+%1 more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>batch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sequence %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 allocations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inferred:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Categories inferred&lt;/b&gt; from the snapshot&apos;s frames, annotations and lifetimes. At the peak, the rule behind each category:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient: an allocation made in backward that is still alive when backward ends, and is freed at the next zero_grad, by the next backward, or never, whatever made it (a weight gradient that AccumulateGrad keeps without a copy, such as BmmBackward0&apos;s aten::bmm output, too).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimelineLabels</name>
    <message>
        <source>Parameter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temporary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autograd detail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>init</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Communication</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before recording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>named by the snapshot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>named by the recording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allocated before recording started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>made in forward, freed in backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>made in forward, alive when backward began</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>made and freed in one phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>made in forward, freed later without a backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>made under AccumulateGrad, kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>made in backward, alive after it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>made in backward, kept, not a gradient&apos;s lifetime</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>made in the optimizer, kept into a later step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>made inside a collective (c10d, DDP, torch.distributed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>made in forward, alive when it ran out of memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing tells its phase or lifetime</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (inferred: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alive before the trace and to its end, one block per gradient of its size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alive before the trace and to its end, beside a parameter of its size (an optimizer&apos;s per-parameter state)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimelineOverlayPainter</name>
    <message>
        <source>Capacity %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Out of memory: tried %1 bytes (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max in view %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · step %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimelineStepPainter</name>
    <message>
        <source>step %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimelineTooltips</name>
    <message>
        <source>&lt;b&gt;Summarized&lt;/b&gt;&lt;br/&gt;%1 bytes (%2) in allocations below the detail level at event %3&lt;br/&gt;%4 of %5 allocations are summarized</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Allocation %1&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phase: %1, step %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phase: before recording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operator: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated at event %1, %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Present from the start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Freed at event %1, %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never freed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total memory after allocation: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(summarized at this detail)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Event %1&lt;/b&gt;, %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 bytes (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total: %1 bytes (%2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TrainOptionTable</name>
    <message>
        <source>&amp;Preset:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Hidden size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Layers:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Heads:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;KV heads:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Intermediate size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Vocabulary:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max sequence:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE theta:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Norm epsilon:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tied embeddings:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Batch size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Sequence length:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;teps:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Warmup steps:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Optimizer:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning rate:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight decay:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Momentum:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dtype:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Attention:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Checkpointing:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>De&amp;vice:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Threads:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capacity &amp;limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A named model shape with the batch and sequence length of its document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model width</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transformer blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key/value heads for grouped-query attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feed-forward width</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vocabulary size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longest sequence the model accepts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share the embedding and output weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequences per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timed steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps run first and not timed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Full training steps, or forward passes only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training (forward, backward, optimizer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forward only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AdamW or SGD</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AdamW</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer learning rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed of the weights and data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fp32, or bf16/fp16 autocast with fp32 master weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bf16 (autocast)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fp16 (autocast)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How attention is computed; all variants compute the same function</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager (workshop baseline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fused projections</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scaled dot-product (LibTorch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory-efficient (chunked)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recompute each block&apos;s activations in backward instead of keeping them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where the run executes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU threads for LibTorch (%1). All cores: fewer while other programs, or this window, keep a core busy. The default leaves a core to this window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Emulate a device with this much memory, for example 512MiB or 2GiB; the run stops with an out-of-memory point when it is exceeded. Empty: no limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no limit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>No %1 translation; showing English.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory profiler for Tiny LLaMA training.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no display (DISPLAY and WAYLAND_DISPLAY are not set): run it on a desktop (or ssh -X), read the run with memscope-cli info, or render views with --screenshot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interface language, e.g. en or de (default: the system&apos;s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit after the given number of milliseconds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown language: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--quit-after-ms needs a whole number of at least 0, not: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a run file (.memscope) or a PyTorch memory snapshot (.pickle).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>view=file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations drawn one by one in the timeline: a count, or a share such as 10%.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n|percent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Screenshot size in pixels (default 1600x900).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WxH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--detail needs a count (15000) or a percentage (10%), not: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--size needs WIDTHxHEIGHT between 200x150 and 16384x16384, not: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--screenshot needs a run to draw: add --open RUN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Render a view of the opened run to a PNG or SVG file and exit (views: timeline, ranks (every rank of a run directory), window, or a tab such as operators, summary).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pixels per point of a PNG screenshot, 1 to 4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>factor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--scale needs a number from 1 to 4, not: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--screenshot needs VIEW=FILE with VIEW timeline, window or a tab name; not: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--screenshot: no view named %1; views: window, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--screenshot: no view named %1; views: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open only part of the run: event indices A:B (1000000:2000000) or times with a unit (2.5s:4s, 300ms:, :1.5min).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A:B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The time a flame graph screenshot shows: a time with a unit (1.25s, 300ms) or an event index (default: the peak).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time|event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--at works with --screenshot flamegraph=FILE only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--compare needs a run to compare with: add --open RUN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--filter: %1 holds no events of this run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--rank: %1 has no readable rank %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With a multi-rank run directory: the rank to show (default: the first).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter every view to the allocations alive in a range of the opened run: event indices A:B, or times with a unit (0.5s:1.2s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How --filter selects allocations: alive (alive in the range, the default) or made (allocated in it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alive|made</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show steps, phases, recomputations and imported annotations on the timeline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--rank needs a rank number of at least 0, not: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--rank needs a multi-rank run directory: add --open DIR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--filter-mode needs alive or made, not: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit once the window has drawn the opened run (timing).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--screenshot ranks needs a run directory; %1 is one run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare the opened run with this one (the Compare tab; --screenshot compare=FILE renders it, compare-overlay=FILE with both runs on one axis).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::AboutBox</name>
    <message>
        <source>CUDA: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HIP: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;%1 %2&lt;/h3&gt;&lt;p&gt;A memory profiler for Tiny LLaMA training: it records every tensor allocation and shows where the memory goes.&lt;/p&gt;&lt;p&gt;Qt %3&lt;br/&gt;LibTorch %4&lt;/p&gt;&lt;p&gt;Devices:&lt;br/&gt;%5&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Memscope</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::AllocationListModel</name>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>before recording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Freed at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lifetime</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::AllocationsPage</name>
    <message>
        <source>&amp;Search:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>category, phase, module or operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations (largest first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 allocations, %3 of %4 alloc/free events shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run open.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::ComparePage</name>
    <message>
        <source>Export comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Laying out...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Synchronize the timelines (by step)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zooming or panning one timeline shows the same steps in the other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Difference flame graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By stack at the peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes alive at each run&apos;s peak by stack, B minus A: red frames grew, blue frames shrank; a frame is as wide as the bytes that changed below it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The two runs hold the same bytes by stack at their peaks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare two runs to see the difference.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At each run&apos;s peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At step %1, %2 (each run&apos;s highest point there)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: A %2, B %3, difference %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>place</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overlay on one axis (B aligned to A&apos;s steps)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B - A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category, module or place</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::ComparisonModel</name>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category at peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operator self allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operator self time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak in step 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak in later steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Average allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forward peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backward peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Section</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delta</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delta %</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::ExportDialog</name>
    <message>
        <source>Export %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG vector drawing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pixels per point: 2x or more stays sharp in print and on high-density screens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scale:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As shown (%1 x %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document figure (1200 x 675)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wide figure (1600 x 900)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slide (1920 x 1080)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG vector drawing (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vector drawing, %1 x %2 points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 x %2 pixels</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::FilterChip</name>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filtered to events %1–%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n allocation(s)</source>
        <translation>
            <numerusform>%n allocation</numerusform>
            <numerusform>%n allocations</numerusform>
        </translation>
    </message>
    <message>
        <source>Chosen by Ctrl+drag on the timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chosen by Ctrl+drag on the overview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Given with --filter on the command line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alive in the range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>made in the range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which allocations the views show: those alive at some event of the range, or those allocated in it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the filter</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::FlameGraphPage</name>
    <message>
        <source>No run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No allocation or free in this run or range.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>At event %1 (%2 s): %3 alive in %n allocation(s)</source>
        <translation>
            <numerusform>At event %1 (%2 s): %3 alive in %n allocation</numerusform>
            <numerusform>At event %1 (%2 s): %3 alive in %n allocations</numerusform>
        </translation>
    </message>
    <message>
        <source>range: events %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pin an allocation on the timeline to choose the time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At the peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At the selected time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The time whose live allocations are shown: the peak of allocated memory, or the allocation pinned on the timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour by category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour by module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bottom-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Building the stack trees of %1 events…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the snapshot&apos;s frames as PyTorch wrote them (interpreter, dispatcher and allocator frames included) instead of the cleaned stacks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One box per function whatever line it was at, so that a program&apos;s entry and a worker&apos;s function are one root; off: one box per source line</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::FlameGraphView</name>
    <message>
        <source>All allocations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: %1&lt;br&gt;B: %2&lt;br&gt;Difference: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1% of all changed bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2% of %3) in %n allocation(s)</source>
        <translation>
            <numerusform>%1 (%2% of %3) in %n allocation</numerusform>
            <numerusform>%1 (%2% of %3) in %n allocations</numerusform>
        </translation>
    </message>
    <message>
        <source>Mostly %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing is allocated at this time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All stacks: A %1, B %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All allocations: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::GrowthPage</name>
    <message>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Made at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kept once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1-%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>-</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding what each step keeps...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> The most is made at %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> The most is made at %1, called from %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n complete step(s): too few to tell whether memory grows (it takes 3).</source>
        <translation>
            <numerusform>%n complete step: too few to tell whether memory grows (it takes 3).</numerusform>
            <numerusform>%n complete steps: too few to tell whether memory grows (it takes 3).</numerusform>
        </translation>
    </message>
    <message>
        <source>Does not grow: what each step makes is freed by the end of the next one (end-of-step floor %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grows %1 a step from step %2: kept to the last step (%3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grew %1 over steps %2-%3, then stopped growing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the steps keep, largest first:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Group by:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stack</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters, gradients and optimizer state are left out. Click a row to highlight the allocations it kept on the timeline; click it again to clear them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per complete step:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations a step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Called from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End-of-step floor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kept to the next step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kept to the last step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Made in the step</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::JournalRecoverer</name>
    <message>
        <source>Recovered %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not recover %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::MainWindow</name>
    <message>
        <source>No run open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot Open Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run in Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the current run before opening another one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening %1...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsaved run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot Save Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comparing %1 with %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot Export View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported the view to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot Start Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recording %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Operators</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Allocations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;ummary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;weeps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Planner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Se&amp;gments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening %1 cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Discarded %n unfinished run(s).</source>
        <translation>
            <numerusform>Discarded %n unfinished run.</numerusform>
            <numerusform>Discarded %n unfinished runs.</numerusform>
        </translation>
    </message>
    <message>
        <source>F&amp;lame Graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Modules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (peak %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (no recording)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2 (peak %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Growth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Part of the File Shown</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::MainWindowActions</name>
    <message>
        <source>Rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search allocations by address, operator, module, category or stack frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find &amp;Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Annotations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show steps, phases, recomputations and imported annotations on the timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clear Range Filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show every allocation again (Ctrl+drag on the timeline sets a range filter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Run...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a recorded .memscope run or a PyTorch memory snapshot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Part of Run...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open only an event or time range of a big .memscope run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save Run As...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the open run to a .memscope file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export View...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the current view as a PNG image or an SVG drawing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Compare With Run...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a second run and compare it with this one side by side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare With &amp;Rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit Memscope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train with the run panel&apos;s settings and record every allocation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the run; everything recorded so far is kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Memscope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the versions of Memscope, Qt, LibTorch and the device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show information about Qt</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::MemoryEventsModel</name>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alloc</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>before recording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated after</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Released at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::ModuleFilterChip</name>
    <message numerus="yes">
        <source>Filtered to module %1: %n allocation(s) highlighted</source>
        <translation>
            <numerusform>Filtered to module %1: %n allocation highlighted</numerusform>
            <numerusform>Filtered to module %1: %n allocations highlighted</numerusform>
        </translation>
    </message>
    <message>
        <source>Clear the module filter</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::ModulePage</name>
    <message numerus="yes">
        <source>Filtered to %1: %n allocation(s) highlighted on the timeline. Click the row again or Clear to show everything.</source>
        <translation>
            <numerusform>Filtered to %1: %n allocation highlighted on the timeline. Click the row again or Clear to show everything.</numerusform>
            <numerusform>Filtered to %1: %n allocations highlighted on the timeline. Click the row again or Clear to show everything.</numerusform>
        </translation>
    </message>
    <message>
        <source>Computing the modules of %1 events…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No allocation or free in this run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At the peak, step %1 (event %2, t = %3): %4 alive. Pin an allocation on the timeline to see another moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At event %1 (t = %2), step %3: %4 alive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2, %3%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No module holds memory at this moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holding the most: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run names no modules: none of its stacks has a module frame, so its memory cannot be split by module.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The moment shown: the peak of allocated memory, or the allocation pinned on the timeline (unpin it to come back to the peak)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show every module&apos;s allocations again</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::ModuleTreeModel</name>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations no module is named for: the input batch, a loss computed outside the model, the optimizer&apos;s temporaries and the like</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
Held by its own allocations (sub-modules left out): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no module)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The module path, each sub-module under its parent; the figures include the sub-modules&apos;. Click a row to highlight its allocations on the timeline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes the module holds at the moment shown, in all the columns to its right up to Other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its parameters&apos; storage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its parameters&apos; gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer state kept for its parameters (moments and the like)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Made in its forward and still alive: mostly what autograd saved for the backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Short-lived temporary buffers it made outside the backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The buffers of its backward, gradients left out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rest: inputs, communication buffers, memory alive before the recording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Over the whole run, the most its forward added at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Over the whole run, the most its backward added at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the step shown, bytes its forward made that were still alive when the backward began</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Held</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temporaries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forward peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backward peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved for backward</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::OomPanel</name>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in step %2 (%3), on the CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in step %2 (%3), on device %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>backward of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown (the event names a stack the run does not have)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no module or operator on its stack</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stack: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>capacity %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>capacity not recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, allocated %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, reserved %1 (%2 free inside its segments, %3 not reserved)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: %1 free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Capacity&lt;/b&gt;: %1 free is less than the %2 requested. The memory in use has to shrink, or the device to grow.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Fragmentation&lt;/b&gt;: %1 free is at least the %2 requested, but it lies in %n piece(s) and the largest is %3. %4 lets the allocator grow a segment instead of needing one free block that large.</source>
        <translation>
            <numerusform>&lt;b&gt;Fragmentation&lt;/b&gt;: %1 free is at least the %2 requested, but it lies in %n piece and the largest is %3. %4 lets the allocator grow a segment instead of needing one free block that large.</numerusform>
            <numerusform>&lt;b&gt;Fragmentation&lt;/b&gt;: %1 free is at least the %2 requested, but it lies in %n pieces and the largest is %3. %4 lets the allocator grow a segment instead of needing one free block that large.</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;Undetermined&lt;/b&gt;: the run does not record the device&apos;s capacity.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Undetermined&lt;/b&gt;: %1 free is at least the %2 requested, and the run has no allocator segments to tell where it lies.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Undetermined&lt;/b&gt;: %1 free is at least the %2 requested and a free region of %3 exists; the allocator could not use it (another stream&apos;s or pool&apos;s segment, or rounding).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing the run recorded was alive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no module)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no module held memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Modules view at the out-of-memory event: %1 alive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1. %2 (%3): predicted peak %4, headroom %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No single change the planner models fits %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The planner&apos;s prediction for this run&apos;s configuration with one change; memscope-cli record --check-advice reruns the first and measures it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The fit of %1 predicts %2 at %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1. %2=%3 (was %4): predicted peak %5, headroom %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No single change of batch or context fits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With %1% to spare for the fit&apos;s largest error on the sweep points it left out; memscope-cli record --fit DIR --check-advice reruns the first and measures it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memscope&apos;s planner does not model this program&apos;s own model: a sweep of the program (memscope-cli sweep --python) predicts it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No configuration is known for this run to advise on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run is not a Python program&apos;s that ran out of memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot advise from the sweep %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sweep of this program (memscope-cli sweep --python)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Out of memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Advice from a sweep of this program...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filled by:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Modules:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What fits:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::OperatorPage</name>
    <message>
        <source>Export operator table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Aggregating operators...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run has no operators or allocations.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n row</numerusform>
            <numerusform>%n rows</numerusform>
        </translation>
    </message>
    <message>
        <source>Times are wall time on the recording thread; %1 inside recorded scopes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run has no op spans: times come from the stored per-name statistics.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Record with --record-shapes for input shapes and FLOPs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Search:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>operator, module or input shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Group by:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the rows shown as CSV (raw bytes, nanoseconds and FLOPs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alive in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>made in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Range filter: rows with allocations %1 events %2–%3 or calls that ran in them; memory columns count those allocations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>calls, times and FLOPs count those calls, each in full (device time and input shapes are the whole run&apos;s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>calls and times are the whole run&apos;s (no op spans)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Times are wall time on the recording thread; %1 inside the recorded scopes that ran in the range.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::OperatorTableModel</name>
    <message>
        <source>backward of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(outside any module or operator)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(outside any operator)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 (+%n more)</source>
        <translation>
            <numerusform>%1 (+%n more)</numerusform>
            <numerusform>%1 (+%n more)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 allocated inside, nested calls included (%n allocation(s))</source>
        <translation>
            <numerusform>%1 allocated inside, nested calls included (%n allocation)</numerusform>
            <numerusform>%1 allocated inside, nested calls included (%n allocations)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 allocated minus freed in this row itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 in the %n allocation(s) attributed to this row</source>
        <translation>
            <numerusform>%1 in the %n allocation attributed to this row</numerusform>
            <numerusform>%1 in the %n allocations attributed to this row</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 calls: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>(%n more)</source>
        <translation>
            <numerusform>(%n more)</numerusform>
            <numerusform>(%n more)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 FLOP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Self CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Self CPU %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU total %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU Mem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Self CPU Mem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Self allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wall time inside the calls minus the calls nested in them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share of the time inside recorded scopes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wall time inside the calls, nested calls included</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU time, where measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes allocated inside, nested calls included</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes allocated minus bytes freed in the row itself (can be negative)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes of the allocations attributed to this row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matmul FLOPs from the recorded input shapes (--record-shapes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Payload the c10d collectives handed to the other ranks</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::OverlayChart</name>
    <message>
        <source>Compare two runs to see them on one axis.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B: %1, aligned to A&apos;s steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reserved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&apos;s allocation and free events; click to compare the runs there</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::PeakCategoryChart</name>
    <message>
        <source>MiB at the peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes by category at the peak (%1), categories inferred from the snapshot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes by category at the peak (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At the peak</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::PlannerPage</name>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activations (incl. autocast cache, loss)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temporaries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context and allocator overhead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device and cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prediction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Strategy comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recommendations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted against measured (open run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Strategy:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO stage:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Efficiency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priority</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recommendation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saves per GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Option</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Component</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bf16 and fp16 are autocast: fp32 weights stay, a low-precision copy of each weight is cached for the step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory-efficient keeps no S x S matrices (like flash attention on a GPU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Cannot predict:&lt;/b&gt; %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#2e7d32&apos;&gt;Fits&lt;/b&gt; on %1: %2 of %3 usable, %4 headroom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#c62828&apos;&gt;Exceeds capacity&lt;/b&gt; of %1: %2 needed, %3 usable, %4 over</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted peak per GPU: %1 (%2 bytes); step 1: %3, steady: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forward only: inference under torch.no_grad %1; forward with autograd on (every activation kept, no backward) %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step time %1, %2 tokens/s, scaling efficiency %3%; MFU %4% (%5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bottlenecks: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MiB per GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory at the predicted peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::ProgramFitPanel</name>
    <message>
        <source>%1: %2 points (%3 failed), %4 left out to check the fit; largest residual %5% on the points fitted, %6% on those left out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At the peak: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot use %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fitting %1 ...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forward (autograd on)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest batch that fits: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sweep open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not even batch 1 fits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On %1: about %2 held of %3 usable: does not fit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On %1: about %2 held of %3 usable: fits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open sweep...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the directory of a sweep of your program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outside what the fit can say: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak %1 (%2, at %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sizes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steady</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the sizes to predict, e.g. d=2560,L=32,s=512,b=4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your program, fitted from a sweep (memscope-cli sweep --python)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RankLanesView</name>
    <message>
        <source>rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no recording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(step %1, %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Laying out %1 ranks…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a run directory to see all its ranks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All ranks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ranks · steps aligned · one memory scale (highest peak %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no recording of this rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a lane: its rank in detail; double-click: the detailed timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each rank&apos;s allocation and free events, stretched between step starts so that every step begins at the same place</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RankRunController</name>
    <message>
        <source>A run is already going.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A run of several processes needs memscope-cli, which is not at %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the folder %1 for the ranks&apos; files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memscope-cli crashed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run started on %1 processes (%2) into %3: memscope-cli %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping every rank at its next module boundary...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (step %2/%3, peak %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (starting)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot follow a rank live: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memscope-cli exited with status %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebuilt from its journal: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not rebuild from its journal: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the run&apos;s options to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Python program started into %1: memscope-cli %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (step %2, peak %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>process %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1 (pid %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RankSummaryTable</name>
    <message>
        <source>%1 (shown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no recording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step 1 peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steady peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Avg step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collective payload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RecentFilesMenu</name>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear Recent Files</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RecoveryOffer</name>
    <message>
        <source>Recover Unfinished Runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) ended before they were saved (the app was closed or crashed). Recover what they recorded?</source>
        <translation type="unfinished">
            <numerusform>%n run ended before it was saved (the app was closed or crashed). Recover what it recorded?</numerusform>
            <numerusform>%n runs ended before they were saved (the app was closed or crashed). Recover what they recorded?</numerusform>
        </translation>
    </message>
    <message>
        <source>Recover</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Later</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::ReservedLinePainter</name>
    <message>
        <source>Reserved (caching allocator)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No caching allocator (CPU): nothing reserved beyond allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No reserved memory recorded</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RooflinePanel</name>
    <message>
        <source>memory-bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mixed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compute-bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n/a</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (estimated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 read (estimated from shapes and dtype) + %2 written (allocated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 FLOP/byte</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (%1 % of peak)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes moved are an estimate: inputs from the recorded shapes at the run&apos;s element size (%1; under autocast matmuls read 2 bytes, other ops 4), outputs from the bytes each call allocated. FLOPs count matmul-like ops only. Classification: below %2 FLOP/byte memory-bound, %2 to %3 mixed, above %3 compute-bound.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Per step: averages over %n step(s); the step&apos;s rates are against its wall time.</source>
        <translation>
            <numerusform>Per step: averages over %n step; the step&apos;s rates are against its wall time.</numerusform>
            <numerusform>Per step: averages over %n steps; the step&apos;s rates are against its wall time.</numerusform>
        </translation>
    </message>
    <message>
        <source>This run has no input shapes: record it with memscope-cli record --record-shapes for FLOPs, bytes moved and the roofline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak FLOP/s: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak bandwidth: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOPs per step:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes moved per step:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arithmetic intensity:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step is:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Achieved FLOP/s:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Achieved bandwidth:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak FLOP/s:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak bandwidth:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ridge point:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes read (est.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOP/byte</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Achieved FLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RunController</name>
    <message>
        <source>A run is already going.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run started: %1, batch %2, sequence %3, %4 steps, %5, attention %6, checkpointing %7, %8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping at the next module boundary...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1/%2%3: Loss = %4, Time = %5 seconds, Peak = %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (warmup)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not keep the run as %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run stopped: out of memory. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run was stopped; everything recorded so far is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The live view stopped updating: %1. The run goes on and is shown when it ends.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run failed: %1. Its journal is kept: Memscope offers to recover it when it starts next.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RunFileDialogs</name>
    <message>
        <source>Runs and snapshots (*.memscope *.pickle *.pkl manifest.json);;Memscope runs (*.memscope);;Multi-rank runs (manifest.json);;PyTorch memory snapshots (*.pickle *.pkl);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Part of Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs and snapshots (*.memscope *.pickle *.pkl);;Memscope runs (*.memscope);;PyTorch memory snapshots (*.pickle *.pkl);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Range to load: event indices (1000000:2000000) or times since the start with a unit (2.5s:4s, 300ms:, :1.5min).
Allocations live at its start count as present from the start. Leave empty for the whole run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a Range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare With Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memscope runs (*.memscope)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RunLauncher</name>
    <message>
        <source>%1 on %2 processes (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run was kept as %1 (File &gt; Save Run As to put it elsewhere).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Out of memory at step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped after step %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished %1 steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run was stopped; every rank kept what it recorded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rank recorded anything into %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the Python program %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program exited with status %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program exited with status %1; what it recorded is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Finished after %n step(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>A run is already going.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RunLoadProgress</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop opening this run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening %p%</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RunPanel</name>
    <message>
        <source>Sets up a new run. The run that is open keeps its own settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same settings as the open run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fill the form with the open run&apos;s recorded configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The open run&apos;s configuration is not known (an import without --config, or no run is open)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision and memory techniques</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>custom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all cores (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recording:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also record each operator&apos;s input shapes: FLOPs, arithmetic intensity and the roofline in the summary (--record-shapes; slightly slower)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Record input shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run (F5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train with these settings and record every allocation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the run; everything recorded so far is kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Processes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Processes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train on this many processes (ranks) of memscope-cli on c10d, each recorded; 1 trains in the application itself (--nproc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Strategy:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How the ranks share the training: data parallel or ZeRO stage 1 to 3 (--parallel)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bucket size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient bucket size of the collectives (--bucket-mib)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run directory the ranks record into (one file per rank and manifest.json); empty: a new folder beside the kept runs (--out)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new folder beside the kept runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DDP (gradients all-reduced)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO-1 (optimizer state sharded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO-2 (optimizer state and gradients sharded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO-3 (parameters sharded too)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a file; a run of several processes writes a folder there (--out).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not empty; choose a new or empty folder for the ranks&apos; files (--out).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Built-in Tiny LLaMA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Python program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>train.py, or -m package.module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--epochs 3 --lr 0.01</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the current folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train the built-in Tiny LLaMA with the settings below, or record a PyTorch program of your own as it runs (memscope-cli record --python)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Script:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program&apos;s script, or -m and a module, as you would give them to python</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program&apos;s own arguments (quoted as in a shell)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where the program runs; empty: Memscope&apos;s current folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interpreter:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Python whose torch the recorder was built against (--python-exe)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--python: name the program&apos;s script (or -m and a module)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a folder (Working folder)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--python: %1 does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--python: -m needs a module</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RunPlaceholder</name>
    <message>
        <source>No run is open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Press Run (F5) to train with the settings on the left and watch the memory live, open a recorded run or a PyTorch snapshot with File &gt; Open Run (Ctrl+O), or drop one here.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RunSession</name>
    <message>
        <source>unknown error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memscope could not open %1.

%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rank %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memscope could not read any rank of %1.

%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 ranks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memscope could not write %1.

%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, pid %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1; PARTIAL: %2, what was read before the damage is shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs about %2 GB of memory to be shown whole, and %3 GB are available: its first part is shown, not the rest. memscope-cli info summarizes the whole file in less.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: showing its first %2 entries (%3 of %4 MB) while the rest loads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1; PREVIEW: the first %2 entries, the whole file does not fit in memory</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::RunStatusBar</name>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about %1 left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>finishing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::SearchBar</name>
    <message>
        <source>No matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search address, operator, module, category, frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find allocations by address (hex, with or without 0x), operator, module, category or any stack frame text (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous match (Shift+F3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next match (F3)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::SegmentPage</name>
    <message>
        <source>reserved %1, allocated %2, fragmentation %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, largest free block %1 (%2 free blocks in %3 segments)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Reserved peak&lt;/b&gt;: %1 (%2 bytes) at event %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;At the allocated peak&lt;/b&gt; (event %1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;At the out-of-memory point&lt;/b&gt; (event %1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No out-of-memory event in this run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free (hatched)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event %1 (step %2, %3 s): %4 segments, reserved %5, allocated %6, fragmentation %7, largest free block %8, %9 free blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (the allocated peak)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (the out-of-memory point)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; %1 live outside every segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the segments at the allocated peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OOM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the segments at the out-of-memory event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run has no caching allocator (CPU): the CPU allocator reserves nothing beyond what it hands out, so there are no segments to show.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run has reserved totals but no segments: segment events come from the caching allocator&apos;s trace tracker (LibTorch 2.x) or from an imported snapshot. The timeline shows the reserved line.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::SegmentView</name>
    <message>
        <source>%1  %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Segment %1&lt;/b&gt;: %2 bytes (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated %1 bytes in %2 blocks, free %3 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pool %1, stream %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; block: %2 bytes (%3) at offset %4, allocation %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free: %1 bytes (%2) at offset %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::StackDiffModel</name>
    <message>
        <source>Stack</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A at its peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B at its peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Difference</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::StackPane</name>
    <message>
        <source>%1 bytes (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>autograd node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forward module responsible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no frames recorded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Item</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click an allocation in the timeline to see its size, category and stacks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>event %1 at %2 s, %3, step %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>before recording started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Freed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never (live at the end)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocation stack</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(allocated before recording started)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free stack</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(never freed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as the snapshot lists them, innermost first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0x%1, %2, pool %3, stream %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::StackTreeModel</name>
    <message>
        <source>Bytes alive at the chosen time (by default the peak)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes of all allocations made (in the range, when one is set)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes of allocations freed right away: the next allocation or free after them is their own free (heaptrack&apos;s definition)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations made (in the range, when one is set)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temporary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::SummaryPage</name>
    <message>
        <source>%1, now on this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing the summary...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n/a</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n/a (one step)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 % of %2 TFLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 events, %3 allocations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak allocated:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak in step 1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak in later steps:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Average allocated:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak / average:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forward peak:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backward peak:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer peak:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak reached in:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples/s:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens/s:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model TFLOP/s:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MFU:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 free of %2 reserved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, largest free block %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes reserved minus %2 bytes allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no out-of-memory event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no caching allocator (CPU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CPU allocator reserves nothing beyond what it hands out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reserved peak:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fragmentation at the peak:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fragmentation at the OOM:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot summarize this run: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filtered range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations alive in it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations made in it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Their bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Highest live total in it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Their bytes by category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1–%2 (%3 s – %4 s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at event %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (inferred)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This GPU run has neither segments nor reserved totals (the snapshot did not include them).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At the peak, the rule that put the most bytes in each category.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 allocated before recording started. These are usually the model&apos;s parameters, and after warm-up steps also gradients and optimizer state. To see them, start recording before building the model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Categories at the peak:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before recording:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 allocated before recording started; of it the model&apos;s parameters, %2 (inferred: one block per gradient of step %3 by size)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, and optimizer state beside them, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::SweepPage</name>
    <message>
        <source>linear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quadratic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sub-linear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>between linear and quadratic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>steeper than quadratic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not enough points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open sweep directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Directory for sweep results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch sizes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequence lengths</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Presets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precisions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpointing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile types</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capacity: &apos;%1&apos; is not a size (try 512MiB or 2GiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sweep is already running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Starting %n point(s)...</source>
        <translation>
            <numerusform>Starting %n point...</numerusform>
            <numerusform>Starting %n points...</numerusform>
        </translation>
    </message>
    <message>
        <source>Point %1 of %2: %3, step %4 of %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Cancelled: kept %n finished point(s) in %1</source>
        <translation>
            <numerusform>Cancelled: kept %n finished point in %1</numerusform>
            <numerusform>Cancelled: kept %n finished points in %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Done: %n point(s) in %1</source>
        <translation>
            <numerusform>Done: %n point in %1</numerusform>
            <numerusform>Done: %n points in %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelling: the running point stops at its next module...</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Opened %n point(s) from %1</source>
        <translation>
            <numerusform>Opened %n point from %1</numerusform>
            <numerusform>Opened %n points from %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Memory (MiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Average</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Out of memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory against batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory against sequence length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input-dependent per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KiB per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>against sequence length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>against batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, %2: peak ∝ %3; input-dependent memory ∝ %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; steepest component: %1 ∝ %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run or open a sweep to see how memory scales.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sweep has no two points that differ only in batch size or sequence length: no exponent to fit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n point(s) ran out of memory (marked in the charts, left out of the fits).</source>
        <translation>
            <numerusform>%n point ran out of memory (marked in the charts, left out of the fits).</numerusform>
            <numerusform>%n points ran out of memory (marked in the charts, left out of the fits).</numerusform>
        </translation>
    </message>
    <message>
        <source>Sweep points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workshop exercise 2, step 1: memory by batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workshop exercise 2, step 3: sequence length scaling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Performance study: problem sizes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CS336 (b): peak per context length, forward and training step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CS336 (c): mixed precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base preset:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch sizes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequence lengths:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Presets:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precisions:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpointing:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile types:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps per point:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capacity:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output directory:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comma-separated, e.g. 4,8,16 (empty: the preset&apos;s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comma-separated, e.g. 64,128,256,512 (empty: the preset&apos;s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comma-separated presets, each with its own model, batch and sequence length (empty: the base preset)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fp32, bf16 (fp16 needs a GPU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>eager, fused, sdpa, memory-efficient</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off, on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training, forward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Emulated device capacity (e.g. 1GiB): points that need more run out of memory and are marked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One dimension at a time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every combination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One dimension at a time: batch sizes at the preset&apos;s sequence length and sequence lengths at its batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open sweep...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Charts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log-log axes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput and per-token charts against:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Define a sweep and run it, or open a finished one.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::TimelineMinimap</name>
    <message>
        <source>Overview of the whole run: drag the brush to pan, drag its edges to zoom</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::TimelinePage</name>
    <message>
        <source>Laying out %1 events…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw the largest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many of the largest allocations are drawn one by one; the others are summed into one summarized band on top.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Number of allocations drawn one by one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share of all allocations drawn one by one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How the allocations are coloured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations one by one, or memory stacked by category over time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>x axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Space the timeline by allocation and free events or by wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the whole run (double-click the timeline does the same)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The process (rank) of the multi-process run shown in every view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Annotations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show steps, phases, checkpoint recomputations and imported annotations as labelled bands</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All ranks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every rank at once: one lane per rank, steps aligned, one memory scale; click a lane to pick its rank</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::TimelineView</name>
    <message>
        <source>Detail: %1 of %2 allocations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rose and fell within a pixel column</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::TorchPartLoader</name>
    <message>
        <source>This needs LibTorch, and its part %1 is neither beside memscope nor in ../lib/memscope (reinstall Memscope)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot load %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no %2 (a library of another Memscope build?)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::ViewExporter</name>
    <message>
        <source>Cannot write %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no view to export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported from %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
