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
    <message>
        <source>cannot open %1: %2</source>
        <translation>kann %1 nicht öffnen: %2</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>kann %1 nicht schreiben</translation>
    </message>
    <message>
        <source>Open a .memscope run file.</source>
        <translation>Eine .memscope-Laufdatei öffnen.</translation>
    </message>
    <message>
        <source>run</source>
        <translation>lauf</translation>
    </message>
    <message>
        <source>Render a view of the opened run to a PNG file and exit (views: timeline).</source>
        <translation>Eine Ansicht des geöffneten Laufs als PNG-Datei speichern und beenden (Ansichten: timeline).</translation>
    </message>
    <message>
        <source>view=file</source>
        <translation>ansicht=datei</translation>
    </message>
    <message>
        <source>Allocations drawn one by one in the timeline: a count, or a share such as 10%.</source>
        <translation>Einzeln gezeichnete Allokationen in der Zeitleiste: eine Anzahl oder ein Anteil wie 10%.</translation>
    </message>
    <message>
        <source>n|percent</source>
        <translation>n|prozent</translation>
    </message>
    <message>
        <source>Screenshot size in pixels (default 1600x900).</source>
        <translation>Größe des Bildschirmfotos in Pixeln (Standard 1600x900).</translation>
    </message>
    <message>
        <source>WxH</source>
        <translation>BxH</translation>
    </message>
    <message>
        <source>--detail needs a count (15000) or a percentage (10%), not: %1</source>
        <translation>--detail braucht eine Anzahl (15000) oder einen Prozentsatz (10%), nicht: %1</translation>
    </message>
    <message>
        <source>--size needs WIDTHxHEIGHT between 200x150 and 16384x16384, not: %1</source>
        <translation>--size braucht BREITExHÖHE zwischen 200x150 und 16384x16384, nicht: %1</translation>
    </message>
    <message>
        <source>--screenshot needs VIEW=FILE with VIEW one of: timeline; not: %1</source>
        <translation>--screenshot braucht ANSICHT=DATEI mit ANSICHT aus: timeline; nicht: %1</translation>
    </message>
    <message>
        <source>--screenshot needs a run to draw: add --open RUN</source>
        <translation>--screenshot braucht einen Lauf zum Zeichnen: --open LAUF angeben</translation>
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
        <source>No run open</source>
        <translation>Kein Lauf geöffnet</translation>
    </message>
    <message>
        <source>Open Run</source>
        <translation>Lauf öffnen</translation>
    </message>
    <message>
        <source>Memscope runs (*.memscope);;All files (*)</source>
        <translation>Memscope-Läufe (*.memscope);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot Open Run</source>
        <translation>Lauf kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Memscope could not open %1.

%2</source>
        <translation>Memscope konnte %1 nicht öffnen.

%2</translation>
    </message>
    <message>
        <source>%1 open</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <source>&amp;Open Run...</source>
        <translation>Lauf ö&amp;ffnen...</translation>
    </message>
    <message>
        <source>Open a recorded .memscope run</source>
        <translation>Einen aufgezeichneten .memscope-Lauf öffnen</translation>
    </message>
    <message>
        <source>Open a recorded run with File &gt; Open Run (Ctrl+O), or record one with memscope-cli record.</source>
        <translation>Öffnen Sie einen aufgezeichneten Lauf mit Datei &gt; Lauf öffnen (Strg+O), oder zeichnen Sie einen mit memscope-cli record auf.</translation>
    </message>
</context>
<context>
    <name>memscope::StackPane</name>
    <message>
        <source>%1 bytes (%2)</source>
        <translation>%1 Bytes (%2)</translation>
    </message>
    <message>
        <source>module</source>
        <translation>Modul</translation>
    </message>
    <message>
        <source>operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <source>autograd node</source>
        <translation>Autograd-Knoten</translation>
    </message>
    <message>
        <source>forward module responsible</source>
        <translation>verantwortliches Forward-Modul</translation>
    </message>
    <message>
        <source>other</source>
        <translation>sonstiges</translation>
    </message>
    <message>
        <source>(no frames recorded)</source>
        <translation>(keine Frames aufgezeichnet)</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>Click an allocation in the timeline to see its size, category and stacks.</source>
        <translation>Klicken Sie auf eine Allokation in der Zeitleiste, um Größe, Kategorie und Stacks zu sehen.</translation>
    </message>
    <message>
        <source>Allocation</source>
        <translation>Allokation</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>event %1 at %2 s, %3, step %4</source>
        <translation>Ereignis %1 bei %2 s, %3, Schritt %4</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>Alloziert</translation>
    </message>
    <message>
        <source>before recording started</source>
        <translation>vor Beginn der Aufzeichnung</translation>
    </message>
    <message>
        <source>Freed</source>
        <translation>Freigegeben</translation>
    </message>
    <message>
        <source>never (live at the end)</source>
        <translation>nie (am Ende noch belegt)</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>Allocation stack</source>
        <translation>Allokations-Stack</translation>
    </message>
    <message>
        <source>(allocated before recording started)</source>
        <translation>(vor Beginn der Aufzeichnung alloziert)</translation>
    </message>
    <message>
        <source>Free stack</source>
        <translation>Freigabe-Stack</translation>
    </message>
    <message>
        <source>(never freed)</source>
        <translation>(nie freigegeben)</translation>
    </message>
</context>
<context>
    <name>memscope::TimelinePage</name>
    <message>
        <source>Laying out %1 events…</source>
        <translation>Ordne %1 Ereignisse an…</translation>
    </message>
    <message>
        <source>Draw the largest</source>
        <translation>Die größten zeichnen</translation>
    </message>
    <message>
        <source>How many of the largest allocations are drawn one by one; the others are summed into one summarized band on top.</source>
        <translation>Wie viele der größten Allokationen einzeln gezeichnet werden; die übrigen werden oben zu einem zusammengefassten Band summiert.</translation>
    </message>
    <message>
        <source>Number of allocations drawn one by one</source>
        <translation>Anzahl der einzeln gezeichneten Allokationen</translation>
    </message>
    <message>
        <source>Share of all allocations drawn one by one</source>
        <translation>Anteil der einzeln gezeichneten Allokationen</translation>
    </message>
</context>
<context>
    <name>memscope::TimelineView</name>
    <message>
        <source>Detail: %1 of %2 allocations</source>
        <translation>Detail: %1 von %2 Allokationen</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Optimizer state</source>
        <translation>Optimiererzustand</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>Eingabe</translation>
    </message>
    <message>
        <source>Temporary</source>
        <translation>Temporär</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>Aktivierung</translation>
    </message>
    <message>
        <source>Gradient</source>
        <translation>Gradient</translation>
    </message>
    <message>
        <source>Autograd detail</source>
        <translation>Autograd-Detail</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
    <message>
        <source>init</source>
        <translation>Init</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>Forward</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>Backward</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>other</source>
        <translation>sonstiges</translation>
    </message>
    <message>
        <source>&lt;b&gt;Summarized&lt;/b&gt;&lt;br/&gt;%1 bytes (%2) in allocations below the detail level at event %3&lt;br/&gt;%4 of %5 allocations are summarized</source>
        <translation>&lt;b&gt;Zusammengefasst&lt;/b&gt;&lt;br/&gt;%1 Bytes (%2) in Allokationen unterhalb der Detailstufe bei Ereignis %3&lt;br/&gt;%4 von %5 Allokationen sind zusammengefasst</translation>
    </message>
    <message>
        <source>&lt;b&gt;Allocation %1&lt;/b&gt;</source>
        <translation>&lt;b&gt;Allokation %1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1 bytes (%2)</source>
        <translation>%1 Bytes (%2)</translation>
    </message>
    <message>
        <source>Category: %1</source>
        <translation>Kategorie: %1</translation>
    </message>
    <message>
        <source>Phase: %1, step %2</source>
        <translation>Phase: %1, Schritt %2</translation>
    </message>
    <message>
        <source>Phase: before recording</source>
        <translation>Phase: vor der Aufzeichnung</translation>
    </message>
    <message>
        <source>Module: %1</source>
        <translation>Modul: %1</translation>
    </message>
    <message>
        <source>Operator: %1</source>
        <translation>Operator: %1</translation>
    </message>
    <message>
        <source>Allocated at event %1</source>
        <translation>Alloziert bei Ereignis %1</translation>
    </message>
    <message>
        <source>Present from the start</source>
        <translation>Von Anfang an vorhanden</translation>
    </message>
    <message>
        <source>Freed at event %1</source>
        <translation>Freigegeben bei Ereignis %1</translation>
    </message>
    <message>
        <source>Never freed</source>
        <translation>Nie freigegeben</translation>
    </message>
    <message>
        <source>Total memory after allocation: %1</source>
        <translation>Gesamtspeicher nach der Allokation: %1</translation>
    </message>
    <message>
        <source>(summarized at this detail)</source>
        <translation>(bei dieser Detailstufe zusammengefasst)</translation>
    </message>
    <message>
        <source>No run open</source>
        <translation>Kein Lauf geöffnet</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation>Spitze %1</translation>
    </message>
    <message>
        <source>max in view %1</source>
        <translation>Maximum im Ausschnitt %1</translation>
    </message>
    <message>
        <source> · step %1, %2</source>
        <translation> · Schritt %1, %2</translation>
    </message>
    <message>
        <source> · %1</source>
        <translation> · %1</translation>
    </message>
    <message>
        <source>%1 s to %2 s</source>
        <translation>%1 s bis %2 s</translation>
    </message>
    <message>
        <source>Allocation and free events</source>
        <translation>Allokations- und Freigabeereignisse</translation>
    </message>
    <message>
        <source>Active memory timeline</source>
        <translation>Zeitleiste des aktiven Speichers</translation>
    </message>
    <message>
        <source>Summarized (%1 smaller allocations)</source>
        <translation>Zusammengefasst (%1 kleinere Allokationen)</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Gesamt</translation>
    </message>
    <message>
        <source>batch %1</source>
        <translation>Batch %1</translation>
    </message>
    <message>
        <source>sequence %1</source>
        <translation>Sequenz %1</translation>
    </message>
    <message>
        <source>%1 allocations</source>
        <translation>%1 Allokationen</translation>
    </message>
</context>
</TS>
