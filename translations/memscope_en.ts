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
        <source>Opening and recording runs is not available in this version yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run open</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
