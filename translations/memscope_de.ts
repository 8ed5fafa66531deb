<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
<context>
    <name>main</name>
    <message>
        <source>No %1 translation; showing English.</source>
        <translation>Keine Übersetzung für %1 vorhanden; die Oberfläche bleibt englisch.</translation>
    </message>
    <message>
        <source>Memory profiler for Tiny LLaMA training.</source>
        <translation>Speicherprofiler für das Training von Tiny LLaMA.</translation>
    </message>
    <message>
        <source>Interface language, e.g. en or de (default: the system&apos;s).</source>
        <translation>Sprache der Oberfläche, z. B. en oder de (Vorgabe: die des Systems).</translation>
    </message>
    <message>
        <source>code</source>
        <translation>Kürzel</translation>
    </message>
    <message>
        <source>Quit after the given number of milliseconds.</source>
        <translation>Nach der angegebenen Anzahl Millisekunden beenden.</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Unknown language: %1</source>
        <translation>Unbekannte Sprache: %1</translation>
    </message>
    <message>
        <source>--quit-after-ms needs a whole number of at least 0, not: %1</source>
        <translation>--quit-after-ms erwartet eine ganze Zahl ab 0, nicht: %1</translation>
    </message>
</context>
<context>
    <name>memscope::MainWindow</name>
    <message>
        <source>&lt;h3&gt;%1 %2&lt;/h3&gt;&lt;p&gt;A memory profiler for Tiny LLaMA training: it records every tensor allocation and shows where the memory goes.&lt;/p&gt;&lt;p&gt;Qt %3&lt;br/&gt;LibTorch %4&lt;/p&gt;</source>
        <translation>&lt;h3&gt;%1 %2&lt;/h3&gt;&lt;p&gt;Ein Speicherprofiler für das Training von Tiny LLaMA: Er zeichnet jede Tensor-Allokation auf und zeigt, wohin der Speicher geht.&lt;/p&gt;&lt;p&gt;Qt %3&lt;br/&gt;LibTorch %4&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About Memscope</source>
        <translation>Über Memscope</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Quit Memscope</source>
        <translation>Memscope beenden</translation>
    </message>
    <message>
        <source>&amp;About Memscope</source>
        <translation>&amp;Über Memscope</translation>
    </message>
    <message>
        <source>Show the versions of Memscope, Qt and LibTorch</source>
        <translation>Zeigt die Versionen von Memscope, Qt und LibTorch</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>Show information about Qt</source>
        <translation>Zeigt Informationen über Qt</translation>
    </message>
    <message>
        <source>No run is open.</source>
        <translation>Es ist kein Lauf geöffnet.</translation>
    </message>
    <message>
        <source>Opening and recording runs is not available in this version yet.</source>
        <translation>Das Öffnen und Aufzeichnen von Läufen ist in dieser Version noch nicht verfügbar.</translation>
    </message>
    <message>
        <source>No run open</source>
        <translation>Kein Lauf geöffnet</translation>
    </message>
</context>
</TS>
