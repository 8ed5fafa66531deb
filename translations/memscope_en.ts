<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
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
        <source>Open a .memscope run file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Render a view of the opened run to a PNG file and exit (views: timeline).</source>
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
        <source>--screenshot needs VIEW=FILE with VIEW one of: timeline; not: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--screenshot needs a run to draw: add --open RUN</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memscope::MainWindow</name>
    <message>
        <source>&lt;h3&gt;%1 %2&lt;/h3&gt;&lt;p&gt;A memory profiler for Tiny LLaMA training: it records every tensor allocation and shows where the memory goes.&lt;/p&gt;&lt;p&gt;Qt %3&lt;br/&gt;LibTorch %4&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Memscope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
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
        <source>&amp;About Memscope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the versions of Memscope, Qt and LibTorch</source>
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
    <message>
        <source>No run is open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memscope runs (*.memscope);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot Open Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memscope could not open %1.

%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Run...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a recorded .memscope run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a recorded run with File &gt; Open Run (Ctrl+O), or record one with memscope-cli record.</source>
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
</context>
<context>
    <name>memscope::TimelineView</name>
    <message>
        <source>Detail: %1 of %2 allocations</source>
        <translation type="unfinished"></translation>
    </message>
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
        <source>Allocated at event %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Present from the start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Freed at event %1</source>
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
        <source>No run open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1</source>
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
    <message>
        <source>%1 s to %2 s</source>
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
        <source>Summarized (%1 smaller allocations)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total</source>
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
</context>
</TS>
