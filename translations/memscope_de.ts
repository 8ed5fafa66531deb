<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
<context>
    <name>TimelineAnnotationPainter</name>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Phases</source>
        <translation>Phasen</translation>
    </message>
    <message>
        <source>Recomputation</source>
        <translation>Neuberechnung</translation>
    </message>
    <message>
        <source>Annotations</source>
        <translation>Annotationen</translation>
    </message>
    <message>
        <source>%1 – %2 (%3)</source>
        <translation>%1 – %2 (%3)</translation>
    </message>
</context>
<context>
    <name>TimelineColors</name>
    <message>
        <source>initialisation (no module)</source>
        <translation>Initialisierung (kein Modul)</translation>
    </message>
    <message>
        <source>(no module)</source>
        <translation>(kein Modul)</translation>
    </message>
    <message>
        <source>other modules</source>
        <translation>weitere Module</translation>
    </message>
    <message>
        <source>Each allocation its own colour</source>
        <translation>Jede Allokation in eigener Farbe</translation>
    </message>
    <message>
        <source>Summarized (%1 smaller allocations)</source>
        <translation>Zusammengefasst (%1 kleinere Allokationen)</translation>
    </message>
</context>
<context>
    <name>TimelineFramePainter</name>
    <message>
        <source>s</source>
        <translation>s</translation>
    </message>
    <message>
        <source>µs</source>
        <translation>µs</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>%1 s to %2 s</source>
        <translation>%1 s bis %2 s</translation>
    </message>
    <message>
        <source>Wall time since the run started</source>
        <translation>Wanduhrzeit seit Beginn des Laufs</translation>
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
        <source>Total</source>
        <translation>Gesamt</translation>
    </message>
    <message>
        <source>+%1 more</source>
        <translation>+%1 weitere</translation>
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
    <message>
        <source>Inferred:</source>
        <translation>Abgeleitet:</translation>
    </message>
    <message>
        <source>&lt;b&gt;Categories inferred&lt;/b&gt; from the snapshot&apos;s frames, annotations and lifetimes. At the peak, the rule behind each category:</source>
        <translation>&lt;b&gt;Kategorien erschlossen&lt;/b&gt; aus den Frames, Annotationen und Lebensdauern des Snapshots. An der Spitze die Regel hinter jeder Kategorie:</translation>
    </message>
    <message>
        <source>Gradient: an allocation made in backward that is still alive when backward ends, and is freed at the next zero_grad, by the next backward, or never, whatever made it (a weight gradient that AccumulateGrad keeps without a copy, such as BmmBackward0&apos;s aten::bmm output, too).</source>
        <translation>Gradient: eine im Backward angelegte Allokation, die am Ende des Backward noch belegt ist und beim nächsten zero_grad, im nächsten Backward oder nie freigegeben wird, gleich was sie angelegt hat (auch ein Gewichtsgradient, den AccumulateGrad ohne Kopie behält, etwa die Ausgabe von aten::bmm in BmmBackward0).</translation>
    </message>
</context>
<context>
    <name>TimelineLabels</name>
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
        <source>Communication</source>
        <translation>Kommunikation</translation>
    </message>
    <message>
        <source>Before recording</source>
        <translation>Vor der Aufzeichnung</translation>
    </message>
    <message>
        <source>named by the snapshot</source>
        <translation>vom Snapshot benannt</translation>
    </message>
    <message>
        <source>named by the recording</source>
        <translation>von der Aufzeichnung benannt</translation>
    </message>
    <message>
        <source>allocated before recording started</source>
        <translation>vor Beginn der Aufzeichnung angelegt</translation>
    </message>
    <message>
        <source>made in forward, freed in backward</source>
        <translation>im Forward angelegt, im Backward freigegeben</translation>
    </message>
    <message>
        <source>made in forward, alive when backward began</source>
        <translation>im Forward angelegt, beim Beginn des Backward noch belegt</translation>
    </message>
    <message>
        <source>made and freed in one phase</source>
        <translation>in einer Phase angelegt und freigegeben</translation>
    </message>
    <message>
        <source>made in forward, freed later without a backward</source>
        <translation>im Forward angelegt, später ohne Backward freigegeben</translation>
    </message>
    <message>
        <source>made under AccumulateGrad, kept</source>
        <translation>unter AccumulateGrad angelegt, behalten</translation>
    </message>
    <message>
        <source>made in backward, alive after it</source>
        <translation>im Backward angelegt, danach noch belegt</translation>
    </message>
    <message>
        <source>made in backward, kept, not a gradient&apos;s lifetime</source>
        <translation>im Backward angelegt, behalten, nicht mit der Lebensdauer eines Gradienten</translation>
    </message>
    <message>
        <source>made in the optimizer, kept into a later step</source>
        <translation>im Optimierer angelegt, bis in einen späteren Schritt behalten</translation>
    </message>
    <message>
        <source>made inside a collective (c10d, DDP, torch.distributed)</source>
        <translation>innerhalb einer kollektiven Operation angelegt (c10d, DDP, torch.distributed)</translation>
    </message>
    <message>
        <source>nothing tells its phase or lifetime</source>
        <translation>weder Phase noch Lebensdauer bekannt</translation>
    </message>
    <message>
        <source>%1 (inferred: %2)</source>
        <translation>%1 (erschlossen: %2)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>made in forward, alive when it ran out of memory</source>
        <translation>im Forward angelegt, beim Speicherüberlauf noch belegt</translation>
    </message>
    <message>
        <source>alive before the trace and to its end, one block per gradient of its size</source>
        <translation>vor der Aufzeichnung angelegt und bis zu ihrem Ende vorhanden, ein Block je Gradient seiner Größe</translation>
    </message>
    <message>
        <source>alive before the trace and to its end, beside a parameter of its size (an optimizer&apos;s per-parameter state)</source>
        <translation>vor der Aufzeichnung angelegt und bis zu ihrem Ende vorhanden, neben einem Parameter seiner Größe (der Zustand eines Optimierers je Parameter)</translation>
    </message>
</context>
<context>
    <name>TimelineOverlayPainter</name>
    <message>
        <source>Capacity %1</source>
        <translation>Kapazität %1</translation>
    </message>
    <message>
        <source>Out of memory: tried %1 bytes (%2)</source>
        <translation>Speicher erschöpft: %1 Bytes (%2) angefordert</translation>
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
</context>
<context>
    <name>TimelineStepPainter</name>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
</context>
<context>
    <name>TimelineTooltips</name>
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
        <source>Allocated at event %1, %2 s</source>
        <translation>Alloziert bei Ereignis %1, %2 s</translation>
    </message>
    <message>
        <source>Present from the start</source>
        <translation>Von Anfang an vorhanden</translation>
    </message>
    <message>
        <source>Freed at event %1, %2 s</source>
        <translation>Freigegeben bei Ereignis %1, %2 s</translation>
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
        <source>&lt;b&gt;Event %1&lt;/b&gt;, %2 s</source>
        <translation>&lt;b&gt;Ereignis %1&lt;/b&gt;, %2 s</translation>
    </message>
    <message>
        <source>%1: %2 bytes (%3)</source>
        <translation>%1: %2 Bytes (%3)</translation>
    </message>
    <message>
        <source>Total: %1 bytes (%2)</source>
        <translation>Gesamt: %1 Bytes (%2)</translation>
    </message>
</context>
<context>
    <name>TrainOptionTable</name>
    <message>
        <source>&amp;Preset:</source>
        <translation>&amp;Vorlage:</translation>
    </message>
    <message>
        <source>&amp;Hidden size:</source>
        <translation>&amp;Verborgene Größe:</translation>
    </message>
    <message>
        <source>&amp;Layers:</source>
        <translation>&amp;Schichten:</translation>
    </message>
    <message>
        <source>&amp;Heads:</source>
        <translation>&amp;Köpfe:</translation>
    </message>
    <message>
        <source>&amp;KV heads:</source>
        <translation>&amp;KV-Köpfe:</translation>
    </message>
    <message>
        <source>&amp;Intermediate size:</source>
        <translation>&amp;Zwischengröße:</translation>
    </message>
    <message>
        <source>&amp;Vocabulary:</source>
        <translation>&amp;Vokabular:</translation>
    </message>
    <message>
        <source>Max sequence:</source>
        <translation>Max. Sequenz:</translation>
    </message>
    <message>
        <source>RoPE theta:</source>
        <translation>RoPE-Theta:</translation>
    </message>
    <message>
        <source>Norm epsilon:</source>
        <translation>Norm-Epsilon:</translation>
    </message>
    <message>
        <source>Tied embeddings:</source>
        <translation>Gebundene Embeddings:</translation>
    </message>
    <message>
        <source>&amp;Batch size:</source>
        <translation>&amp;Batchgröße:</translation>
    </message>
    <message>
        <source>&amp;Sequence length:</source>
        <translation>&amp;Sequenzlänge:</translation>
    </message>
    <message>
        <source>S&amp;teps:</source>
        <translation>Sch&amp;ritte:</translation>
    </message>
    <message>
        <source>&amp;Warmup steps:</source>
        <translation>&amp;Aufwärmschritte:</translation>
    </message>
    <message>
        <source>Profile:</source>
        <translation>Profil:</translation>
    </message>
    <message>
        <source>&amp;Optimizer:</source>
        <translation>&amp;Optimierer:</translation>
    </message>
    <message>
        <source>Learning rate:</source>
        <translation>Lernrate:</translation>
    </message>
    <message>
        <source>Weight decay:</source>
        <translation>Gewichtsabnahme:</translation>
    </message>
    <message>
        <source>Momentum:</source>
        <translation>Momentum:</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>Seed:</translation>
    </message>
    <message>
        <source>&amp;Dtype:</source>
        <translation>&amp;Datentyp:</translation>
    </message>
    <message>
        <source>&amp;Attention:</source>
        <translation>&amp;Attention:</translation>
    </message>
    <message>
        <source>&amp;Checkpointing:</source>
        <translation>&amp;Checkpointing:</translation>
    </message>
    <message>
        <source>De&amp;vice:</source>
        <translation>Ge&amp;rät:</translation>
    </message>
    <message>
        <source>&amp;Threads:</source>
        <translation>&amp;Threads:</translation>
    </message>
    <message>
        <source>Capacity &amp;limit:</source>
        <translation>Kapazitäts&amp;grenze:</translation>
    </message>
    <message>
        <source>A named model shape with the batch and sequence length of its document</source>
        <translation>Eine benannte Modellform mit Batch und Sequenzlänge ihres Dokuments</translation>
    </message>
    <message>
        <source>Model width</source>
        <translation>Modellbreite</translation>
    </message>
    <message>
        <source>Transformer blocks</source>
        <translation>Transformer-Blöcke</translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation>Attention-Köpfe</translation>
    </message>
    <message>
        <source>Key/value heads for grouped-query attention</source>
        <translation>Key/Value-Köpfe für Grouped-Query-Attention</translation>
    </message>
    <message>
        <source>Feed-forward width</source>
        <translation>Breite des Feed-Forward-Teils</translation>
    </message>
    <message>
        <source>Vocabulary size</source>
        <translation>Größe des Vokabulars</translation>
    </message>
    <message>
        <source>Longest sequence the model accepts</source>
        <translation>Längste Sequenz, die das Modell annimmt</translation>
    </message>
    <message>
        <source>Share the embedding and output weights</source>
        <translation>Embedding- und Ausgabegewichte teilen</translation>
    </message>
    <message>
        <source>Sequences per step</source>
        <translation>Sequenzen pro Schritt</translation>
    </message>
    <message>
        <source>Tokens per sequence</source>
        <translation>Token pro Sequenz</translation>
    </message>
    <message>
        <source>Timed steps</source>
        <translation>Gemessene Schritte</translation>
    </message>
    <message>
        <source>Steps run first and not timed</source>
        <translation>Schritte, die zuerst laufen und nicht gemessen werden</translation>
    </message>
    <message>
        <source>Full training steps, or forward passes only</source>
        <translation>Vollständige Trainingsschritte oder nur Vorwärtsdurchläufe</translation>
    </message>
    <message>
        <source>Training (forward, backward, optimizer)</source>
        <translation>Training (vorwärts, rückwärts, Optimierer)</translation>
    </message>
    <message>
        <source>Forward only</source>
        <translation>Nur vorwärts</translation>
    </message>
    <message>
        <source>AdamW or SGD</source>
        <translation>AdamW oder SGD</translation>
    </message>
    <message>
        <source>AdamW</source>
        <translation>AdamW</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>SGD mit Momentum</translation>
    </message>
    <message>
        <source>Optimizer learning rate</source>
        <translation>Lernrate des Optimierers</translation>
    </message>
    <message>
        <source>Seed of the weights and data</source>
        <translation>Seed der Gewichte und Daten</translation>
    </message>
    <message>
        <source>fp32, or bf16/fp16 autocast with fp32 master weights</source>
        <translation>fp32, oder bf16/fp16-Autocast mit fp32-Mastergewichten</translation>
    </message>
    <message>
        <source>bf16 (autocast)</source>
        <translation>bf16 (Autocast)</translation>
    </message>
    <message>
        <source>fp16 (autocast)</source>
        <translation>fp16 (Autocast)</translation>
    </message>
    <message>
        <source>How attention is computed; all variants compute the same function</source>
        <translation>Wie Attention berechnet wird; alle Varianten berechnen dieselbe Funktion</translation>
    </message>
    <message>
        <source>Eager (workshop baseline)</source>
        <translation>Eager (Workshop-Basis)</translation>
    </message>
    <message>
        <source>Fused projections</source>
        <translation>Fusionierte Projektionen</translation>
    </message>
    <message>
        <source>Scaled dot-product (LibTorch)</source>
        <translation>Scaled Dot-Product (LibTorch)</translation>
    </message>
    <message>
        <source>Memory-efficient (chunked)</source>
        <translation>Speichereffizient (in Blöcken)</translation>
    </message>
    <message>
        <source>Recompute each block&apos;s activations in backward instead of keeping them</source>
        <translation>Die Aktivierungen jedes Blocks im Rückwärtsdurchlauf neu berechnen, statt sie zu behalten</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keines</translation>
    </message>
    <message>
        <source>Per block</source>
        <translation>Pro Block</translation>
    </message>
    <message>
        <source>Where the run executes</source>
        <translation>Wo der Lauf ausgeführt wird</translation>
    </message>
    <message>
        <source>CPU threads for LibTorch (%1). All cores: fewer while other programs, or this window, keep a core busy. The default leaves a core to this window.</source>
        <translation>CPU-Threads für LibTorch (%1). Alle Kerne: weniger, solange andere Programme oder dieses Fenster einen Kern auslasten. Die Voreinstellung lässt diesem Fenster einen Kern.</translation>
    </message>
    <message>
        <source>Emulate a device with this much memory, for example 512MiB or 2GiB; the run stops with an out-of-memory point when it is exceeded. Empty: no limit</source>
        <translation>Ein Gerät mit so viel Speicher nachbilden, zum Beispiel 512MiB oder 2GiB; der Lauf endet mit einem Speicher-erschöpft-Punkt, wenn sie überschritten wird. Leer: keine Grenze</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>keine Grenze</translation>
    </message>
</context>
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
        <source>no display (DISPLAY and WAYLAND_DISPLAY are not set): run it on a desktop (or ssh -X), read the run with memscope-cli info, or render views with --screenshot</source>
        <translation>keine Anzeige (DISPLAY und WAYLAND_DISPLAY sind nicht gesetzt): auf einem Desktop starten (oder mit ssh -X), den Lauf mit memscope-cli info lesen oder Ansichten mit --screenshot erzeugen</translation>
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
        <source>Open a run file (.memscope) or a PyTorch memory snapshot (.pickle).</source>
        <translation>Eine Laufdatei (.memscope) oder einen PyTorch-Speicher-Snapshot (.pickle) öffnen.</translation>
    </message>
    <message>
        <source>run</source>
        <translation>lauf</translation>
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
        <source>--screenshot needs a run to draw: add --open RUN</source>
        <translation>--screenshot braucht einen Lauf zum Zeichnen: --open LAUF angeben</translation>
    </message>
    <message>
        <source>--screenshot: no view named %1; views: window, %2</source>
        <translation>--screenshot: keine Ansicht namens %1; Ansichten: window, %2</translation>
    </message>
    <message>
        <source>--screenshot: no view named %1; views: %2</source>
        <translation>--screenshot: keine Ansicht namens %1; Ansichten: %2</translation>
    </message>
    <message>
        <source>Render a view of the opened run to a PNG or SVG file and exit (views: timeline, ranks (every rank of a run directory), window, or a tab such as operators, summary).</source>
        <translation>Eine Ansicht des geöffneten Laufs als PNG- oder SVG-Datei speichern und beenden (Ansichten: timeline, ranks (alle Ränge eines Laufverzeichnisses), window oder ein Reiter wie operators, summary).</translation>
    </message>
    <message>
        <source>Pixels per point of a PNG screenshot, 1 to 4.</source>
        <translation>Pixel pro Punkt eines PNG-Bildschirmfotos, 1 bis 4.</translation>
    </message>
    <message>
        <source>factor</source>
        <translation>Faktor</translation>
    </message>
    <message>
        <source>--scale needs a number from 1 to 4, not: %1</source>
        <translation>--scale braucht eine Zahl von 1 bis 4, nicht: %1</translation>
    </message>
    <message>
        <source>--screenshot needs VIEW=FILE with VIEW timeline, window or a tab name; not: %1</source>
        <translation>--screenshot braucht ANSICHT=DATEI mit ANSICHT timeline, window oder einem Reiternamen; nicht: %1</translation>
    </message>
    <message>
        <source>Open only part of the run: event indices A:B (1000000:2000000) or times with a unit (2.5s:4s, 300ms:, :1.5min).</source>
        <translation>Nur einen Teil des Laufs öffnen: Ereignisindizes A:B (1000000:2000000) oder Zeiten mit Einheit (2.5s:4s, 300ms:, :1.5min).</translation>
    </message>
    <message>
        <source>A:B</source>
        <translation>A:B</translation>
    </message>
    <message>
        <source>The time a flame graph screenshot shows: a time with a unit (1.25s, 300ms) or an event index (default: the peak).</source>
        <translation>Der Zeitpunkt, den ein Flame-Graph-Screenshot zeigt: eine Zeit mit Einheit (1.25s, 300ms) oder ein Ereignisindex (Standard: die Spitze).</translation>
    </message>
    <message>
        <source>time|event</source>
        <translation>zeit|ereignis</translation>
    </message>
    <message>
        <source>--at works with --screenshot flamegraph=FILE only</source>
        <translation>--at wirkt nur mit --screenshot flamegraph=DATEI</translation>
    </message>
    <message>
        <source>--compare needs a run to compare with: add --open RUN</source>
        <translation>--compare braucht einen Lauf zum Vergleichen: --open LAUF angeben</translation>
    </message>
    <message>
        <source>--filter: %1 holds no events of this run</source>
        <translation>--filter: %1 enthält keine Ereignisse dieses Laufs</translation>
    </message>
    <message>
        <source>--rank: %1 has no readable rank %2</source>
        <translation>--rank: %1 hat keinen lesbaren Rang %2</translation>
    </message>
    <message>
        <source>With a multi-rank run directory: the rank to show (default: the first).</source>
        <translation>Bei einem Mehrrang-Laufverzeichnis: der anzuzeigende Rang (Vorgabe: der erste).</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>Filter every view to the allocations alive in a range of the opened run: event indices A:B, or times with a unit (0.5s:1.2s).</source>
        <translation>Alle Ansichten auf die Allokationen filtern, die in einem Bereich des geöffneten Laufs leben: Ereignisindizes A:B oder Zeiten mit Einheit (0.5s:1.2s).</translation>
    </message>
    <message>
        <source>range</source>
        <translation>Bereich</translation>
    </message>
    <message>
        <source>How --filter selects allocations: alive (alive in the range, the default) or made (allocated in it).</source>
        <translation>Wie --filter Allokationen wählt: alive (im Bereich lebendig, Vorgabe) oder made (darin angelegt).</translation>
    </message>
    <message>
        <source>alive|made</source>
        <translation>alive|made</translation>
    </message>
    <message>
        <source>Show steps, phases, recomputations and imported annotations on the timeline.</source>
        <translation>Schritte, Phasen, Neuberechnungen und importierte Annotationen auf der Zeitleiste zeigen.</translation>
    </message>
    <message>
        <source>--rank needs a rank number of at least 0, not: %1</source>
        <translation>--rank braucht eine Rangnummer ab 0, nicht: %1</translation>
    </message>
    <message>
        <source>--rank needs a multi-rank run directory: add --open DIR</source>
        <translation>--rank braucht ein Mehrrang-Laufverzeichnis: --open VERZ angeben</translation>
    </message>
    <message>
        <source>--filter-mode needs alive or made, not: %1</source>
        <translation>--filter-mode braucht alive oder made, nicht: %1</translation>
    </message>
    <message>
        <source>Quit once the window has drawn the opened run (timing).</source>
        <translation>Beenden, sobald das Fenster den geöffneten Lauf gezeichnet hat (Zeitmessung).</translation>
    </message>
    <message>
        <source>--screenshot ranks needs a run directory; %1 is one run</source>
        <translation>--screenshot ranks braucht ein Laufverzeichnis; %1 ist ein einzelner Lauf</translation>
    </message>
    <message>
        <source>Compare the opened run with this one (the Compare tab; --screenshot compare=FILE renders it, compare-overlay=FILE with both runs on one axis).</source>
        <translation>Den geöffneten Lauf mit diesem vergleichen (Reiter Vergleich; --screenshot compare=DATEI zeichnet ihn, compare-overlay=DATEI mit beiden Läufen auf einer Achse).</translation>
    </message>
</context>
<context>
    <name>memscope::AboutBox</name>
    <message>
        <source>CUDA: %1</source>
        <translation>CUDA: %1</translation>
    </message>
    <message>
        <source>HIP: %1</source>
        <translation>HIP: %1</translation>
    </message>
    <message>
        <source>&lt;h3&gt;%1 %2&lt;/h3&gt;&lt;p&gt;A memory profiler for Tiny LLaMA training: it records every tensor allocation and shows where the memory goes.&lt;/p&gt;&lt;p&gt;Qt %3&lt;br/&gt;LibTorch %4&lt;/p&gt;&lt;p&gt;Devices:&lt;br/&gt;%5&lt;/p&gt;</source>
        <translation>&lt;h3&gt;%1 %2&lt;/h3&gt;&lt;p&gt;Ein Speicherprofiler für das Training von Tiny LLaMA: Er zeichnet jede Tensor-Allokation auf und zeigt, wohin der Speicher geht.&lt;/p&gt;&lt;p&gt;Qt %3&lt;br/&gt;LibTorch %4&lt;/p&gt;&lt;p&gt;Geräte:&lt;br/&gt;%5&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About Memscope</source>
        <translation>Über Memscope</translation>
    </message>
</context>
<context>
    <name>memscope::AllocationListModel</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>before recording</source>
        <translation>vor der Aufzeichnung</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
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
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>Modul</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <source>Allocated at</source>
        <translation>Alloziert bei</translation>
    </message>
    <message>
        <source>Freed at</source>
        <translation>Freigegeben bei</translation>
    </message>
    <message>
        <source>Lifetime</source>
        <translation>Lebensdauer</translation>
    </message>
</context>
<context>
    <name>memscope::AllocationsPage</name>
    <message>
        <source>&amp;Search:</source>
        <translation>&amp;Suche:</translation>
    </message>
    <message>
        <source>category, phase, module or operator</source>
        <translation>Kategorie, Phase, Modul oder Operator</translation>
    </message>
    <message>
        <source>Allocations (largest first)</source>
        <translation>Allokationen (größte zuerst)</translation>
    </message>
    <message>
        <source>Memory events</source>
        <translation>Speicherereignisse</translation>
    </message>
    <message>
        <source>%1 of %2 allocations, %3 of %4 alloc/free events shown</source>
        <translation>%1 von %2 Allokationen, %3 von %4 Allokations-/Freigabeereignissen angezeigt</translation>
    </message>
    <message>
        <source>No run open.</source>
        <translation>Kein Lauf geöffnet.</translation>
    </message>
</context>
<context>
    <name>memscope::ComparePage</name>
    <message>
        <source>Export comparison</source>
        <translation>Vergleich exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Laying out...</source>
        <translation>Wird angeordnet...</translation>
    </message>
    <message>
        <source>Run A</source>
        <translation>Lauf A</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A: %1</translation>
    </message>
    <message>
        <source>Run B</source>
        <translation>Lauf B</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B: %1</translation>
    </message>
    <message>
        <source>Synchronize the timelines (by step)</source>
        <translation>Zeitachsen synchronisieren (nach Schritt)</translation>
    </message>
    <message>
        <source>Zooming or panning one timeline shows the same steps in the other</source>
        <translation>Zoomen oder Verschieben der einen Zeitachse zeigt dieselben Schritte in der anderen</translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation>Als CSV exportieren...</translation>
    </message>
    <message>
        <source>Difference flame graph</source>
        <translation>Flame Graph der Differenz</translation>
    </message>
    <message>
        <source>By stack at the peak</source>
        <translation>Nach Stack an der Spitze</translation>
    </message>
    <message>
        <source>Bytes alive at each run&apos;s peak by stack, B minus A: red frames grew, blue frames shrank; a frame is as wide as the bytes that changed below it.</source>
        <translation>An der Spitze jedes Laufs belegte Bytes nach Stack, B minus A: rote Frames sind gewachsen, blaue geschrumpft; ein Frame ist so breit wie die Bytes, die sich darunter geändert haben.</translation>
    </message>
    <message>
        <source>The two runs hold the same bytes by stack at their peaks.</source>
        <translation>Beide Läufe belegen an ihren Spitzen dieselben Bytes je Stack.</translation>
    </message>
    <message>
        <source>Compare two runs to see the difference.</source>
        <translation>Zwei Läufe vergleichen, um die Differenz zu sehen.</translation>
    </message>
    <message>
        <source>At each run&apos;s peak</source>
        <translation>An der Spitze jedes Laufs</translation>
    </message>
    <message>
        <source>At step %1, %2 (each run&apos;s highest point there)</source>
        <translation>In Schritt %1, %2 (der höchste Punkt jedes Laufs dort)</translation>
    </message>
    <message>
        <source>%1: A %2, B %3, difference %4.</source>
        <translation>%1: A %2, B %3, Differenz %4.</translation>
    </message>
    <message>
        <source>category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>module</source>
        <translation>Modul</translation>
    </message>
    <message>
        <source>place</source>
        <translation>Stelle</translation>
    </message>
    <message>
        <source>Overlay on one axis (B aligned to A&apos;s steps)</source>
        <translation>Auf einer Achse übereinander (B an den Schritten von A ausgerichtet)</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Nach</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>B - A</source>
        <translation>B − A</translation>
    </message>
    <message>
        <source>Category, module or place</source>
        <translation>Kategorie, Modul oder Stelle</translation>
    </message>
</context>
<context>
    <name>memscope::ComparisonModel</name>
    <message>
        <source>Summary</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>Category at peak</source>
        <translation>Kategorie am Spitzenwert</translation>
    </message>
    <message>
        <source>Module allocated</source>
        <translation>Vom Modul belegt</translation>
    </message>
    <message>
        <source>Operator self allocated</source>
        <translation>Vom Operator selbst belegt</translation>
    </message>
    <message>
        <source>Operator self time</source>
        <translation>Eigenzeit des Operators</translation>
    </message>
    <message>
        <source>Peak allocated</source>
        <translation>Spitzenbelegung</translation>
    </message>
    <message>
        <source>Peak in step 1</source>
        <translation>Spitze in Schritt 1</translation>
    </message>
    <message>
        <source>Peak in later steps</source>
        <translation>Spitze in späteren Schritten</translation>
    </message>
    <message>
        <source>Average allocated</source>
        <translation>Mittlere Belegung</translation>
    </message>
    <message>
        <source>Forward peak</source>
        <translation>Spitze im Forward</translation>
    </message>
    <message>
        <source>Backward peak</source>
        <translation>Spitze im Backward</translation>
    </message>
    <message>
        <source>Optimizer peak</source>
        <translation>Spitze im Optimierer</translation>
    </message>
    <message>
        <source>Time per step</source>
        <translation>Zeit pro Schritt</translation>
    </message>
    <message>
        <source>Samples per second</source>
        <translation>Samples pro Sekunde</translation>
    </message>
    <message>
        <source>Tokens per second</source>
        <translation>Tokens pro Sekunde</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>Section</source>
        <translation>Abschnitt</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Delta</source>
        <translation>Differenz</translation>
    </message>
    <message>
        <source>Delta %</source>
        <translation>Differenz %</translation>
    </message>
</context>
<context>
    <name>memscope::ExportDialog</name>
    <message>
        <source>Export %1</source>
        <translation>%1 exportieren</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>Durchsuchen...</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>Datei:</translation>
    </message>
    <message>
        <source>PNG image</source>
        <translation>PNG-Bild</translation>
    </message>
    <message>
        <source>SVG vector drawing</source>
        <translation>SVG-Vektorgrafik</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>Format:</translation>
    </message>
    <message>
        <source>Pixels per point: 2x or more stays sharp in print and on high-density screens</source>
        <translation>Pixel pro Punkt: ab 2x bleibt das Bild im Druck und auf hochauflösenden Bildschirmen scharf</translation>
    </message>
    <message>
        <source>Scale:</source>
        <translation>Skalierung:</translation>
    </message>
    <message>
        <source>As shown (%1 x %2)</source>
        <translation>Wie angezeigt (%1 x %2)</translation>
    </message>
    <message>
        <source>Document figure (1200 x 675)</source>
        <translation>Abbildung im Dokument (1200 x 675)</translation>
    </message>
    <message>
        <source>Wide figure (1600 x 900)</source>
        <translation>Breite Abbildung (1600 x 900)</translation>
    </message>
    <message>
        <source>Slide (1920 x 1080)</source>
        <translation>Folie (1920 x 1080)</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>Eigene</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>Größe:</translation>
    </message>
    <message>
        <source>Custom size:</source>
        <translation>Eigene Größe:</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Export View</source>
        <translation>Ansicht exportieren</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG vector drawing (*.svg)</source>
        <translation>PNG-Bild (*.png);;SVG-Vektorgrafik (*.svg)</translation>
    </message>
    <message>
        <source>Vector drawing, %1 x %2 points</source>
        <translation>Vektorgrafik, %1 x %2 Punkte</translation>
    </message>
    <message>
        <source>%1 x %2 pixels</source>
        <translation>%1 x %2 Pixel</translation>
    </message>
</context>
<context>
    <name>memscope::FilterChip</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>Filtered to events %1–%2</source>
        <translation>Gefiltert auf Ereignisse %1–%2</translation>
    </message>
    <message numerus="yes">
        <source>%n allocation(s)</source>
        <translation>
            <numerusform>%n Allokation</numerusform>
            <numerusform>%n Allokationen</numerusform>
        </translation>
    </message>
    <message>
        <source>Chosen by Ctrl+drag on the timeline</source>
        <translation>Mit Strg+Ziehen auf der Zeitleiste gewählt</translation>
    </message>
    <message>
        <source>Chosen by Ctrl+drag on the overview</source>
        <translation>Mit Strg+Ziehen in der Übersicht gewählt</translation>
    </message>
    <message>
        <source>Given with --filter on the command line</source>
        <translation>Mit --filter auf der Kommandozeile angegeben</translation>
    </message>
    <message>
        <source>alive in the range</source>
        <translation>im Bereich lebendig</translation>
    </message>
    <message>
        <source>made in the range</source>
        <translation>im Bereich angelegt</translation>
    </message>
    <message>
        <source>Which allocations the views show: those alive at some event of the range, or those allocated in it</source>
        <translation>Welche Allokationen die Ansichten zeigen: die bei einem Ereignis des Bereichs lebendigen oder die darin angelegten</translation>
    </message>
    <message>
        <source>Clear the filter</source>
        <translation>Filter aufheben</translation>
    </message>
</context>
<context>
    <name>memscope::FlameGraphPage</name>
    <message>
        <source>No run.</source>
        <translation>Kein Lauf.</translation>
    </message>
    <message>
        <source>No allocation or free in this run or range.</source>
        <translation>Keine Allokation oder Freigabe in diesem Lauf oder Bereich.</translation>
    </message>
    <message numerus="yes">
        <source>At event %1 (%2 s): %3 alive in %n allocation(s)</source>
        <translation>
            <numerusform>Bei Ereignis %1 (%2 s): %3 belegt in %n Allokation</numerusform>
            <numerusform>Bei Ereignis %1 (%2 s): %3 belegt in %n Allokationen</numerusform>
        </translation>
    </message>
    <message>
        <source>range: events %1 to %2</source>
        <translation>Bereich: Ereignisse %1 bis %2</translation>
    </message>
    <message>
        <source>pin an allocation on the timeline to choose the time</source>
        <translation>eine Allokation in der Zeitleiste anheften, um den Zeitpunkt zu wählen</translation>
    </message>
    <message>
        <source>At the peak</source>
        <translation>An der Spitze</translation>
    </message>
    <message>
        <source>At the selected time</source>
        <translation>Zum gewählten Zeitpunkt</translation>
    </message>
    <message>
        <source>The time whose live allocations are shown: the peak of allocated memory, or the allocation pinned on the timeline</source>
        <translation>Der Zeitpunkt, dessen lebende Allokationen gezeigt werden: die Spitze des allozierten Speichers oder die in der Zeitleiste angeheftete Allokation</translation>
    </message>
    <message>
        <source>Colour by category</source>
        <translation>Nach Kategorie färben</translation>
    </message>
    <message>
        <source>Colour by module</source>
        <translation>Nach Modul färben</translation>
    </message>
    <message>
        <source>Top-down</source>
        <translation>Top-down</translation>
    </message>
    <message>
        <source>Bottom-up</source>
        <translation>Bottom-up</translation>
    </message>
    <message>
        <source>Building the stack trees of %1 events…</source>
        <translation>Baue die Stack-Bäume aus %1 Ereignissen…</translation>
    </message>
    <message>
        <source>Raw frames</source>
        <translation>Rohe Frames</translation>
    </message>
    <message>
        <source>Show the snapshot&apos;s frames as PyTorch wrote them (interpreter, dispatcher and allocator frames included) instead of the cleaned stacks</source>
        <translation>Die Frames des Snapshots so zeigen, wie PyTorch sie schrieb (mit Interpreter-, Dispatcher- und Allokator-Frames), statt der bereinigten Stacks</translation>
    </message>
    <message>
        <source>Merge lines</source>
        <translation>Zeilen zusammenfassen</translation>
    </message>
    <message>
        <source>One box per function whatever line it was at, so that a program&apos;s entry and a worker&apos;s function are one root; off: one box per source line</source>
        <translation>Ein Kasten je Funktion, gleich in welcher Zeile, so dass der Einstieg eines Programms und die Funktion eines Workers je eine Wurzel sind; aus: ein Kasten je Quellzeile</translation>
    </message>
</context>
<context>
    <name>memscope::FlameGraphView</name>
    <message>
        <source>All allocations</source>
        <translation>Alle Allokationen</translation>
    </message>
    <message>
        <source>A: %1&lt;br&gt;B: %2&lt;br&gt;Difference: %3</source>
        <translation>A: %1&lt;br&gt;B: %2&lt;br&gt;Differenz: %3</translation>
    </message>
    <message>
        <source>%1% of all changed bytes</source>
        <translation>%1 % aller geänderten Bytes</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2% of %3) in %n allocation(s)</source>
        <translation>
            <numerusform>%1 (%2 % von %3) in %n Allokation</numerusform>
            <numerusform>%1 (%2 % von %3) in %n Allokationen</numerusform>
        </translation>
    </message>
    <message>
        <source>Mostly %1</source>
        <translation>Überwiegend %1</translation>
    </message>
    <message>
        <source>Nothing is allocated at this time.</source>
        <translation>Zu diesem Zeitpunkt ist nichts alloziert.</translation>
    </message>
    <message>
        <source>All stacks: A %1, B %2 (%3)</source>
        <translation>Alle Stacks: A %1, B %2 (%3)</translation>
    </message>
    <message>
        <source>All allocations: %1</source>
        <translation>Alle Allokationen: %1</translation>
    </message>
</context>
<context>
    <name>memscope::GrowthPage</name>
    <message>
        <source>Module</source>
        <translation>Modul</translation>
    </message>
    <message>
        <source>Made at</source>
        <translation>Angelegt in</translation>
    </message>
    <message>
        <source>grows</source>
        <translation>wächst</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>kept once</source>
        <translation>einmal behalten</translation>
    </message>
    <message>
        <source>%1-%2</source>
        <translation>%1–%2</translation>
    </message>
    <message>
        <source>-</source>
        <translation>–</translation>
    </message>
    <message>
        <source>Finding what each step keeps...</source>
        <translation>Ermittle, was jeder Schritt behält...</translation>
    </message>
    <message>
        <source>No run.</source>
        <translation>Kein Lauf.</translation>
    </message>
    <message>
        <source> The most is made at %1.</source>
        <translation> Das meiste wird in %1 angelegt.</translation>
    </message>
    <message>
        <source> The most is made at %1, called from %2.</source>
        <translation> Das meiste wird in %1 angelegt, aufgerufen aus %2.</translation>
    </message>
    <message numerus="yes">
        <source>%n complete step(s): too few to tell whether memory grows (it takes 3).</source>
        <translation>
            <numerusform>%n vollständiger Schritt: zu wenige, um zu sagen, ob der Speicher wächst (es braucht 3).</numerusform>
            <numerusform>%n vollständige Schritte: zu wenige, um zu sagen, ob der Speicher wächst (es braucht 3).</numerusform>
        </translation>
    </message>
    <message>
        <source>Does not grow: what each step makes is freed by the end of the next one (end-of-step floor %1).</source>
        <translation>Wächst nicht: was jeder Schritt anlegt, ist am Ende des nächsten freigegeben (Sockel am Schrittende %1).</translation>
    </message>
    <message>
        <source>Grows %1 a step from step %2: kept to the last step (%3).</source>
        <translation>Wächst um %1 je Schritt ab Schritt %2: bis zum letzten Schritt (%3) behalten.</translation>
    </message>
    <message>
        <source>Grew %1 over steps %2-%3, then stopped growing.</source>
        <translation>Wuchs um %1 über die Schritte %2–%3, dann nicht mehr.</translation>
    </message>
    <message>
        <source>What the steps keep, largest first:</source>
        <translation>Was die Schritte behalten, das Größte zuerst:</translation>
    </message>
    <message>
        <source>&amp;Group by:</source>
        <translation>&amp;Gruppieren nach:</translation>
    </message>
    <message>
        <source>Stack</source>
        <translation>Stack</translation>
    </message>
    <message>
        <source>Parameters, gradients and optimizer state are left out. Click a row to highlight the allocations it kept on the timeline; click it again to clear them.</source>
        <translation>Parameter, Gradienten und Optimiererzustand sind ausgenommen. Ein Klick auf eine Zeile hebt die von ihr behaltenen Allokationen auf der Zeitleiste hervor; ein zweiter Klick hebt das auf.</translation>
    </message>
    <message>
        <source>Per complete step:</source>
        <translation>Je vollständigem Schritt:</translation>
    </message>
    <message>
        <source>Trend</source>
        <translation>Trend</translation>
    </message>
    <message>
        <source>A step</source>
        <translation>Je Schritt</translation>
    </message>
    <message>
        <source>Allocations a step</source>
        <translation>Allokationen je Schritt</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Kept</source>
        <translation>Behalten</translation>
    </message>
    <message>
        <source>Called from</source>
        <translation>Aufgerufen aus</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>End-of-step floor</source>
        <translation>Sockel am Schrittende</translation>
    </message>
    <message>
        <source>Kept to the next step</source>
        <translation>Bis zum nächsten Schritt behalten</translation>
    </message>
    <message>
        <source>Kept to the last step</source>
        <translation>Bis zum letzten Schritt behalten</translation>
    </message>
    <message>
        <source>Made in the step</source>
        <translation>Im Schritt angelegt</translation>
    </message>
</context>
<context>
    <name>memscope::JournalRecoverer</name>
    <message>
        <source>Recovered %1: %2</source>
        <translation>%1 wiederhergestellt: %2</translation>
    </message>
    <message>
        <source>Could not recover %1: %2</source>
        <translation>%1 konnte nicht wiederhergestellt werden: %2</translation>
    </message>
</context>
<context>
    <name>memscope::MainWindow</name>
    <message>
        <source>No run open</source>
        <translation>Kein Lauf geöffnet</translation>
    </message>
    <message>
        <source>Cannot Open Run</source>
        <translation>Lauf kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>%1 open</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <source>Run in Progress</source>
        <translation>Lauf in Arbeit</translation>
    </message>
    <message>
        <source>Stop the current run before opening another one.</source>
        <translation>Beenden Sie den laufenden Lauf, bevor Sie einen anderen öffnen.</translation>
    </message>
    <message>
        <source>Opening %1...</source>
        <translation>%1 wird geöffnet...</translation>
    </message>
    <message>
        <source>Unsaved run</source>
        <translation>Ungespeicherter Lauf</translation>
    </message>
    <message>
        <source>Cannot Save Run</source>
        <translation>Lauf kann nicht gespeichert werden</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>%1 gespeichert.</translation>
    </message>
    <message>
        <source>Comparing %1 with %2.</source>
        <translation>Vergleiche %1 mit %2.</translation>
    </message>
    <message>
        <source>Cannot Export View</source>
        <translation>Ansicht kann nicht exportiert werden</translation>
    </message>
    <message>
        <source>Exported the view to %1.</source>
        <translation>Ansicht nach %1 exportiert.</translation>
    </message>
    <message>
        <source>Cannot Start Run</source>
        <translation>Lauf kann nicht gestartet werden</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>Aufzeichnung</translation>
    </message>
    <message>
        <source>Recording %1</source>
        <translation>Zeichne %1 auf</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation>&amp;Zeitleiste</translation>
    </message>
    <message>
        <source>&amp;Operators</source>
        <translation>&amp;Operatoren</translation>
    </message>
    <message>
        <source>&amp;Allocations</source>
        <translation>&amp;Allokationen</translation>
    </message>
    <message>
        <source>S&amp;ummary</source>
        <translation>Zusa&amp;mmenfassung</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>&amp;Vergleich</translation>
    </message>
    <message>
        <source>S&amp;weeps</source>
        <translation>S&amp;weeps</translation>
    </message>
    <message>
        <source>&amp;Planner</source>
        <translation>&amp;Planer</translation>
    </message>
    <message>
        <source>Se&amp;gments</source>
        <translation>Se&amp;gmente</translation>
    </message>
    <message>
        <source>Opening %1 cancelled.</source>
        <translation>Öffnen von %1 abgebrochen.</translation>
    </message>
    <message numerus="yes">
        <source>Discarded %n unfinished run(s).</source>
        <translation>
            <numerusform>%n unvollendeter Lauf verworfen.</numerusform>
            <numerusform>%n unvollendete Läufe verworfen.</numerusform>
        </translation>
    </message>
    <message>
        <source>F&amp;lame Graph</source>
        <translation>F&amp;lame Graph</translation>
    </message>
    <message>
        <source>&amp;Modules</source>
        <translation>&amp;Module</translation>
    </message>
    <message>
        <source>%1 (peak %2)</source>
        <translation>%1 (Spitze %2)</translation>
    </message>
    <message>
        <source>%1 (no recording)</source>
        <translation>%1 (keine Aufzeichnung)</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rang %1</translation>
    </message>
    <message>
        <source>Opened %1: %2.</source>
        <translation>%1 geöffnet: %2.</translation>
    </message>
    <message>
        <source>%1 · %2 (peak %3)</source>
        <translation>%1 · %2 (Spitze %3)</translation>
    </message>
    <message>
        <source>Growth</source>
        <translation>Wachstum</translation>
    </message>
    <message>
        <source>Part of the File Shown</source>
        <translation>Ein Teil der Datei wird gezeigt</translation>
    </message>
</context>
<context>
    <name>memscope::MainWindowActions</name>
    <message>
        <source>Rank %1</source>
        <translation>Rang %1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Lauf</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Find...</source>
        <translation>&amp;Suchen...</translation>
    </message>
    <message>
        <source>Search allocations by address, operator, module, category or stack frame</source>
        <translation>Allokationen nach Adresse, Operator, Modul, Kategorie oder Stack-Frame suchen</translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation>&amp;Weitersuchen</translation>
    </message>
    <message>
        <source>Find &amp;Previous</source>
        <translation>&amp;Rückwärts suchen</translation>
    </message>
    <message>
        <source>&amp;Annotations</source>
        <translation>&amp;Annotationen</translation>
    </message>
    <message>
        <source>Show steps, phases, recomputations and imported annotations on the timeline</source>
        <translation>Schritte, Phasen, Neuberechnungen und importierte Annotationen auf der Zeitleiste zeigen</translation>
    </message>
    <message>
        <source>&amp;Clear Range Filter</source>
        <translation>Bereichsfilter &amp;aufheben</translation>
    </message>
    <message>
        <source>Show every allocation again (Ctrl+drag on the timeline sets a range filter)</source>
        <translation>Wieder alle Allokationen zeigen (Strg+Ziehen auf der Zeitleiste setzt einen Bereichsfilter)</translation>
    </message>
    <message>
        <source>&amp;Open Run...</source>
        <translation>Lauf ö&amp;ffnen...</translation>
    </message>
    <message>
        <source>Open a recorded .memscope run or a PyTorch memory snapshot</source>
        <translation>Einen aufgezeichneten .memscope-Lauf oder einen PyTorch-Speicher-Snapshot öffnen</translation>
    </message>
    <message>
        <source>Open &amp;Part of Run...</source>
        <translation>&amp;Teil eines Laufs öffnen...</translation>
    </message>
    <message>
        <source>Open only an event or time range of a big .memscope run</source>
        <translation>Nur einen Ereignis- oder Zeitbereich eines großen .memscope-Laufs öffnen</translation>
    </message>
    <message>
        <source>&amp;Save Run As...</source>
        <translation>Lauf &amp;speichern unter...</translation>
    </message>
    <message>
        <source>Write the open run to a .memscope file</source>
        <translation>Den geöffneten Lauf in eine .memscope-Datei schreiben</translation>
    </message>
    <message>
        <source>&amp;Export View...</source>
        <translation>Ansicht &amp;exportieren...</translation>
    </message>
    <message>
        <source>Save the current view as a PNG image or an SVG drawing</source>
        <translation>Die aktuelle Ansicht als PNG-Bild oder SVG-Grafik speichern</translation>
    </message>
    <message>
        <source>&amp;Compare With Run...</source>
        <translation>Mit Lauf &amp;vergleichen...</translation>
    </message>
    <message>
        <source>Open a second run and compare it with this one side by side</source>
        <translation>Einen zweiten Lauf öffnen und nebeneinander mit diesem vergleichen</translation>
    </message>
    <message>
        <source>Compare With &amp;Rank</source>
        <translation>Mit &amp;Rang vergleichen</translation>
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
        <source>Train with the run panel&apos;s settings and record every allocation</source>
        <translation>Mit den Einstellungen des Lauf-Bereichs trainieren und jede Allokation aufzeichnen</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Stopp</translation>
    </message>
    <message>
        <source>Stop the run; everything recorded so far is kept</source>
        <translation>Den Lauf anhalten; alles bisher Aufgezeichnete bleibt erhalten</translation>
    </message>
    <message>
        <source>&amp;About Memscope</source>
        <translation>&amp;Über Memscope</translation>
    </message>
    <message>
        <source>Show the versions of Memscope, Qt, LibTorch and the device</source>
        <translation>Die Versionen von Memscope, Qt, LibTorch und das Gerät anzeigen</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>Show information about Qt</source>
        <translation>Zeigt Informationen über Qt</translation>
    </message>
</context>
<context>
    <name>memscope::MemoryEventsModel</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>alloc</source>
        <translation>Allokation</translation>
    </message>
    <message>
        <source>free</source>
        <translation>Freigabe</translation>
    </message>
    <message>
        <source>before recording</source>
        <translation>vor der Aufzeichnung</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Allocated after</source>
        <translation>Alloziert danach</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>Modul</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Allocated at</source>
        <translation>Alloziert bei</translation>
    </message>
    <message>
        <source>Released at</source>
        <translation>Freigegeben bei</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
</context>
<context>
    <name>memscope::ModuleFilterChip</name>
    <message numerus="yes">
        <source>Filtered to module %1: %n allocation(s) highlighted</source>
        <translation>
            <numerusform>Gefiltert auf Modul %1: %n Allokation hervorgehoben</numerusform>
            <numerusform>Gefiltert auf Modul %1: %n Allokationen hervorgehoben</numerusform>
        </translation>
    </message>
    <message>
        <source>Clear the module filter</source>
        <translation>Den Modulfilter aufheben</translation>
    </message>
</context>
<context>
    <name>memscope::ModulePage</name>
    <message numerus="yes">
        <source>Filtered to %1: %n allocation(s) highlighted on the timeline. Click the row again or Clear to show everything.</source>
        <translation>
            <numerusform>Gefiltert auf %1: %n Allokation in der Zeitleiste hervorgehoben. Erneut auf die Zeile klicken oder „Aufheben“, um alles zu zeigen.</numerusform>
            <numerusform>Gefiltert auf %1: %n Allokationen in der Zeitleiste hervorgehoben. Erneut auf die Zeile klicken oder „Aufheben“, um alles zu zeigen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Computing the modules of %1 events…</source>
        <translation>Module von %1 Ereignissen werden berechnet…</translation>
    </message>
    <message>
        <source>No allocation or free in this run.</source>
        <translation>Keine Allokation oder Freigabe in diesem Lauf.</translation>
    </message>
    <message>
        <source>At the peak, step %1 (event %2, t = %3): %4 alive. Pin an allocation on the timeline to see another moment.</source>
        <translation>An der Spitze, Schritt %1 (Ereignis %2, t = %3): %4 belegt. Eine Allokation in der Zeitleiste anheften, um einen anderen Zeitpunkt zu sehen.</translation>
    </message>
    <message>
        <source>At event %1 (t = %2), step %3: %4 alive.</source>
        <translation>Bei Ereignis %1 (t = %2), Schritt %3: %4 belegt.</translation>
    </message>
    <message>
        <source>%1 (%2, %3%)</source>
        <translation>%1 (%2, %3 %)</translation>
    </message>
    <message>
        <source>No module holds memory at this moment.</source>
        <translation>Kein Modul belegt zu diesem Zeitpunkt Speicher.</translation>
    </message>
    <message>
        <source>Holding the most: %1.</source>
        <translation>Am meisten belegen: %1.</translation>
    </message>
    <message>
        <source>This run names no modules: none of its stacks has a module frame, so its memory cannot be split by module.</source>
        <translation>Dieser Lauf nennt keine Module: keiner seiner Stacks hat einen Modul-Frame, daher lässt sich sein Speicher nicht nach Modulen aufteilen.</translation>
    </message>
    <message>
        <source>No run.</source>
        <translation>Kein Lauf.</translation>
    </message>
    <message>
        <source>The moment shown: the peak of allocated memory, or the allocation pinned on the timeline (unpin it to come back to the peak)</source>
        <translation>Der gezeigte Zeitpunkt: die Spitze des allozierten Speichers oder die in der Zeitleiste angeheftete Allokation (lösen, um zur Spitze zurückzukehren)</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Aufheben</translation>
    </message>
    <message>
        <source>Show every module&apos;s allocations again</source>
        <translation>Die Allokationen aller Module wieder zeigen</translation>
    </message>
</context>
<context>
    <name>memscope::ModuleTreeModel</name>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>Allocations no module is named for: the input batch, a loss computed outside the model, the optimizer&apos;s temporaries and the like</source>
        <translation>Allokationen, für die kein Modul genannt ist: der Eingabe-Batch, ein außerhalb des Modells berechneter Loss, die temporären Tensoren des Optimierers und dergleichen</translation>
    </message>
    <message>
        <source>%1
Held by its own allocations (sub-modules left out): %2</source>
        <translation>%1
Von seinen eigenen Allokationen belegt (ohne Untermodule): %2</translation>
    </message>
    <message>
        <source>(no module)</source>
        <translation>(kein Modul)</translation>
    </message>
    <message>
        <source>The module path, each sub-module under its parent; the figures include the sub-modules&apos;. Click a row to highlight its allocations on the timeline.</source>
        <translation>Der Modulpfad, jedes Untermodul unter seinem Elternmodul; die Zahlen schließen die der Untermodule ein. Ein Klick auf eine Zeile hebt ihre Allokationen in der Zeitleiste hervor.</translation>
    </message>
    <message>
        <source>Bytes the module holds at the moment shown, in all the columns to its right up to Other</source>
        <translation>Bytes, die das Modul zum gezeigten Zeitpunkt belegt, in allen Spalten rechts davon bis „Sonstiges“</translation>
    </message>
    <message>
        <source>Its parameters&apos; storage</source>
        <translation>Der Speicher seiner Parameter</translation>
    </message>
    <message>
        <source>Its parameters&apos; gradients</source>
        <translation>Die Gradienten seiner Parameter</translation>
    </message>
    <message>
        <source>Optimizer state kept for its parameters (moments and the like)</source>
        <translation>Für seine Parameter gehaltener Optimiererzustand (Momente und dergleichen)</translation>
    </message>
    <message>
        <source>Made in its forward and still alive: mostly what autograd saved for the backward</source>
        <translation>In seinem Forward angelegt und noch belegt: meist, was Autograd für den Backward aufbewahrt</translation>
    </message>
    <message>
        <source>Short-lived temporary buffers it made outside the backward</source>
        <translation>Kurzlebige temporäre Puffer, die es außerhalb des Backward angelegt hat</translation>
    </message>
    <message>
        <source>The buffers of its backward, gradients left out</source>
        <translation>Die Puffer seines Backward, ohne Gradienten</translation>
    </message>
    <message>
        <source>The rest: inputs, communication buffers, memory alive before the recording</source>
        <translation>Der Rest: Eingaben, Kommunikationspuffer, vor der Aufzeichnung belegter Speicher</translation>
    </message>
    <message>
        <source>Over the whole run, the most its forward added at once</source>
        <translation>Über den ganzen Lauf: das Meiste, das sein Forward auf einmal hinzufügte</translation>
    </message>
    <message>
        <source>Over the whole run, the most its backward added at once</source>
        <translation>Über den ganzen Lauf: das Meiste, das sein Backward auf einmal hinzufügte</translation>
    </message>
    <message>
        <source>In the step shown, bytes its forward made that were still alive when the backward began</source>
        <translation>Im gezeigten Schritt: Bytes, die sein Forward anlegte und die zu Beginn des Backward noch belegt waren</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>Modul</translation>
    </message>
    <message>
        <source>Held</source>
        <translation>Belegt</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>Gradienten</translation>
    </message>
    <message>
        <source>Optimizer state</source>
        <translation>Optimiererzustand</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <source>Temporaries</source>
        <translation>Temporäre Tensoren</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>Backward</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Sonstiges</translation>
    </message>
    <message>
        <source>Forward peak</source>
        <translation>Spitze im Forward</translation>
    </message>
    <message>
        <source>Backward peak</source>
        <translation>Spitze im Backward</translation>
    </message>
    <message>
        <source>Saved for backward</source>
        <translation>Für den Backward aufbewahrt</translation>
    </message>
</context>
<context>
    <name>memscope::OomPanel</name>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1 (%2 Bytes)</translation>
    </message>
    <message>
        <source>%1 in step %2 (%3), on the CPU</source>
        <translation>%1 in Schritt %2 (%3), auf der CPU</translation>
    </message>
    <message>
        <source>%1 in step %2 (%3), on device %4</source>
        <translation>%1 in Schritt %2 (%3), auf Gerät %4</translation>
    </message>
    <message>
        <source>backward of %1</source>
        <translation>Rückwärts von %1</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>unknown (the event names a stack the run does not have)</source>
        <translation>unbekannt (das Ereignis nennt einen Stack, den der Lauf nicht hat)</translation>
    </message>
    <message>
        <source>no module or operator on its stack</source>
        <translation>kein Modul und kein Operator auf seinem Stack</translation>
    </message>
    <message>
        <source>Stack: %1</source>
        <translation>Stack: %1</translation>
    </message>
    <message>
        <source>capacity %1</source>
        <translation>Kapazität %1</translation>
    </message>
    <message>
        <source>capacity not recorded</source>
        <translation>Kapazität nicht aufgezeichnet</translation>
    </message>
    <message>
        <source>, allocated %1</source>
        <translation>, belegt %1</translation>
    </message>
    <message>
        <source>, reserved %1 (%2 free inside its segments, %3 not reserved)</source>
        <translation>, reserviert %1 (%2 frei in seinen Segmenten, %3 nicht reserviert)</translation>
    </message>
    <message>
        <source>: %1 free</source>
        <translation>: %1 frei</translation>
    </message>
    <message>
        <source>&lt;b&gt;Capacity&lt;/b&gt;: %1 free is less than the %2 requested. The memory in use has to shrink, or the device to grow.</source>
        <translation>&lt;b&gt;Kapazität&lt;/b&gt;: %1 frei ist weniger als die angeforderten %2. Der belegte Speicher muss kleiner werden oder das Gerät größer.</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Fragmentation&lt;/b&gt;: %1 free is at least the %2 requested, but it lies in %n piece(s) and the largest is %3. %4 lets the allocator grow a segment instead of needing one free block that large.</source>
        <translation>
            <numerusform>&lt;b&gt;Fragmentierung&lt;/b&gt;: %1 frei sind mindestens die angeforderten %2, aber sie liegen in %n Stück, und das größte hat %3. %4 lässt den Allokator ein Segment vergrößern, statt einen freien Block dieser Größe zu brauchen.</numerusform>
            <numerusform>&lt;b&gt;Fragmentierung&lt;/b&gt;: %1 frei sind mindestens die angeforderten %2, aber sie liegen in %n Stücken, und das größte hat %3. %4 lässt den Allokator ein Segment vergrößern, statt einen freien Block dieser Größe zu brauchen.</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;Undetermined&lt;/b&gt;: the run does not record the device&apos;s capacity.</source>
        <translation>&lt;b&gt;Unbestimmt&lt;/b&gt;: der Lauf zeichnet die Kapazität des Geräts nicht auf.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Undetermined&lt;/b&gt;: %1 free is at least the %2 requested, and the run has no allocator segments to tell where it lies.</source>
        <translation>&lt;b&gt;Unbestimmt&lt;/b&gt;: %1 frei sind mindestens die angeforderten %2, und der Lauf hat keine Segmente des Allokators, die zeigen, wo sie liegen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Undetermined&lt;/b&gt;: %1 free is at least the %2 requested and a free region of %3 exists; the allocator could not use it (another stream&apos;s or pool&apos;s segment, or rounding).</source>
        <translation>&lt;b&gt;Unbestimmt&lt;/b&gt;: %1 frei sind mindestens die angeforderten %2, und ein freier Bereich von %3 existiert; der Allokator konnte ihn nicht nutzen (Segment eines anderen Streams oder Pools, oder Rundung).</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>nothing the run recorded was alive</source>
        <translation>nichts Aufgezeichnetes war belegt</translation>
    </message>
    <message>
        <source>(no module)</source>
        <translation>(kein Modul)</translation>
    </message>
    <message>
        <source>no module held memory</source>
        <translation>kein Modul hielt Speicher</translation>
    </message>
    <message>
        <source>The Modules view at the out-of-memory event: %1 alive</source>
        <translation>Die Modulansicht beim Speicherfehler: %1 belegt</translation>
    </message>
    <message>
        <source>%1. %2 (%3): predicted peak %4, headroom %5</source>
        <translation>%1. %2 (%3): vorhergesagte Spitze %4, Reserve %5</translation>
    </message>
    <message>
        <source>No single change the planner models fits %1.</source>
        <translation>Keine einzelne Änderung, die der Planer modelliert, passt in %1.</translation>
    </message>
    <message>
        <source>The planner&apos;s prediction for this run&apos;s configuration with one change; memscope-cli record --check-advice reruns the first and measures it.</source>
        <translation>Die Vorhersage des Planers für die Konfiguration dieses Laufs mit einer Änderung; memscope-cli record --check-advice führt die erste erneut aus und misst sie.</translation>
    </message>
    <message>
        <source>The fit of %1 predicts %2 at %3.</source>
        <translation>Die Anpassung von %1 sagt %2 bei %3 voraus.</translation>
    </message>
    <message>
        <source>%1. %2=%3 (was %4): predicted peak %5, headroom %6</source>
        <translation>%1. %2=%3 (war %4): vorhergesagte Spitze %5, Reserve %6</translation>
    </message>
    <message>
        <source>No single change of batch or context fits.</source>
        <translation>Keine einzelne Änderung von Batch oder Kontext passt.</translation>
    </message>
    <message>
        <source>(%1)</source>
        <translation>(%1)</translation>
    </message>
    <message>
        <source>With %1% to spare for the fit&apos;s largest error on the sweep points it left out; memscope-cli record --fit DIR --check-advice reruns the first and measures it.</source>
        <translation>Mit %1% Reserve für den größten Fehler der Anpassung an den ausgelassenen Sweep-Punkten; memscope-cli record --fit DIR --check-advice führt die erste erneut aus und misst sie.</translation>
    </message>
    <message>
        <source>Memscope&apos;s planner does not model this program&apos;s own model: a sweep of the program (memscope-cli sweep --python) predicts it.</source>
        <translation>Memscopes Planer modelliert das eigene Modell dieses Programms nicht: ein Sweep des Programms (memscope-cli sweep --python) sagt es voraus.</translation>
    </message>
    <message>
        <source>No configuration is known for this run to advise on.</source>
        <translation>Für diesen Lauf ist keine Konfiguration bekannt, zu der sich raten ließe.</translation>
    </message>
    <message>
        <source>This run is not a Python program&apos;s that ran out of memory.</source>
        <translation>Dieser Lauf ist nicht der eines Python-Programms, dem der Speicher ausging.</translation>
    </message>
    <message>
        <source>Cannot advise from the sweep %1: %2</source>
        <translation>Kein Rat aus dem Sweep %1: %2</translation>
    </message>
    <message>
        <source>A sweep of this program (memscope-cli sweep --python)</source>
        <translation>Ein Sweep dieses Programms (memscope-cli sweep --python)</translation>
    </message>
    <message>
        <source>Out of memory</source>
        <translation>Speicher erschöpft</translation>
    </message>
    <message>
        <source>Advice from a sweep of this program...</source>
        <translation>Rat aus einem Sweep dieses Programms...</translation>
    </message>
    <message>
        <source>Request:</source>
        <translation>Anforderung:</translation>
    </message>
    <message>
        <source>Where:</source>
        <translation>Wo:</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>Gerät:</translation>
    </message>
    <message>
        <source>Why:</source>
        <translation>Warum:</translation>
    </message>
    <message>
        <source>Filled by:</source>
        <translation>Gefüllt von:</translation>
    </message>
    <message>
        <source>Modules:</source>
        <translation>Module:</translation>
    </message>
    <message>
        <source>What fits:</source>
        <translation>Was passt:</translation>
    </message>
</context>
<context>
    <name>memscope::OperatorPage</name>
    <message>
        <source>Export operator table</source>
        <translation>Operatortabelle exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Aggregating operators...</source>
        <translation>Operatoren werden zusammengefasst...</translation>
    </message>
    <message>
        <source>No run open.</source>
        <translation>Kein Lauf geöffnet.</translation>
    </message>
    <message>
        <source>This run has no operators or allocations.</source>
        <translation>Dieser Lauf hat keine Operatoren oder Allokationen.</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n Zeile</numerusform>
            <numerusform>%n Zeilen</numerusform>
        </translation>
    </message>
    <message>
        <source>Times are wall time on the recording thread; %1 inside recorded scopes.</source>
        <translation>Zeiten sind Wanduhrzeit auf dem aufzeichnenden Thread; %1 in aufgezeichneten Bereichen.</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>This run has no op spans: times come from the stored per-name statistics.</source>
        <translation>Dieser Lauf hat keine Op-Spannen: Zeiten stammen aus der gespeicherten Statistik je Name.</translation>
    </message>
    <message>
        <source>Record with --record-shapes for input shapes and FLOPs.</source>
        <translation>Mit --record-shapes aufzeichnen für Eingabeformen und FLOPs.</translation>
    </message>
    <message>
        <source>&amp;Search:</source>
        <translation>&amp;Suche:</translation>
    </message>
    <message>
        <source>operator, module or input shape</source>
        <translation>Operator, Modul oder Eingabeform</translation>
    </message>
    <message>
        <source>&amp;Group by:</source>
        <translation>&amp;Gruppieren nach:</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <source>Module tree</source>
        <translation>Modulbaum</translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation>CSV exportieren...</translation>
    </message>
    <message>
        <source>Save the rows shown as CSV (raw bytes, nanoseconds and FLOPs)</source>
        <translation>Die angezeigten Zeilen als CSV speichern (Bytes, Nanosekunden und FLOPs als Rohwerte)</translation>
    </message>
    <message>
        <source>of %1</source>
        <translation>von %1</translation>
    </message>
    <message>
        <source>alive in</source>
        <translation>lebendig in den</translation>
    </message>
    <message>
        <source>made in</source>
        <translation>angelegt in den</translation>
    </message>
    <message>
        <source>Range filter: rows with allocations %1 events %2–%3 or calls that ran in them; memory columns count those allocations</source>
        <translation>Bereichsfilter: Zeilen mit Allokationen, %1 Ereignissen %2–%3, oder mit Aufrufen, die darin liefen; die Speicherspalten zählen nur diese Allokationen</translation>
    </message>
    <message>
        <source>calls, times and FLOPs count those calls, each in full (device time and input shapes are the whole run&apos;s)</source>
        <translation>Aufrufe, Zeiten und FLOPs zählen diese Aufrufe, jeden ganz (Gerätezeit und Eingabeformen gelten für den ganzen Lauf)</translation>
    </message>
    <message>
        <source>calls and times are the whole run&apos;s (no op spans)</source>
        <translation>Aufrufe und Zeiten gelten für den ganzen Lauf (keine Op-Spannen)</translation>
    </message>
    <message>
        <source>Times are wall time on the recording thread; %1 inside the recorded scopes that ran in the range.</source>
        <translation>Zeiten sind Wanduhrzeit auf dem aufzeichnenden Thread; %1 in den aufgezeichneten Bereichen, die im Filterbereich liefen.</translation>
    </message>
</context>
<context>
    <name>memscope::OperatorTableModel</name>
    <message>
        <source>backward of %1</source>
        <translation>Rückwärts von %1</translation>
    </message>
    <message>
        <source>(outside any module or operator)</source>
        <translation>(außerhalb jedes Moduls und Operators)</translation>
    </message>
    <message>
        <source>(outside any operator)</source>
        <translation>(außerhalb jedes Operators)</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>Rückwärts</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message numerus="yes">
        <source>%1 (+%n more)</source>
        <translation>
            <numerusform>%1 (+%n weitere)</numerusform>
            <numerusform>%1 (+%n weitere)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message numerus="yes">
        <source>%1 allocated inside, nested calls included (%n allocation(s))</source>
        <translation>
            <numerusform>%1 darin alloziert, verschachtelte Aufrufe eingeschlossen (%n Allokation)</numerusform>
            <numerusform>%1 darin alloziert, verschachtelte Aufrufe eingeschlossen (%n Allokationen)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 allocated minus freed in this row itself</source>
        <translation>%1 alloziert minus freigegeben in dieser Zeile selbst</translation>
    </message>
    <message numerus="yes">
        <source>%1 in the %n allocation(s) attributed to this row</source>
        <translation>
            <numerusform>%1 in der %n dieser Zeile zugeordneten Allokation</numerusform>
            <numerusform>%1 in den %n dieser Zeile zugeordneten Allokationen</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 calls: %2</source>
        <translation>%1 Aufrufe: %2</translation>
    </message>
    <message numerus="yes">
        <source>(%n more)</source>
        <translation>
            <numerusform>(%n weitere)</numerusform>
            <numerusform>(%n weitere)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 FLOP</source>
        <translation>%1 FLOP</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>Aufrufe</translation>
    </message>
    <message>
        <source>Self CPU</source>
        <translation>Eigene CPU</translation>
    </message>
    <message>
        <source>Self CPU %</source>
        <translation>Eigene CPU %</translation>
    </message>
    <message>
        <source>CPU total</source>
        <translation>CPU gesamt</translation>
    </message>
    <message>
        <source>CPU total %</source>
        <translation>CPU gesamt %</translation>
    </message>
    <message>
        <source>Device total</source>
        <translation>Gerät gesamt</translation>
    </message>
    <message>
        <source>CPU Mem</source>
        <translation>CPU-Speicher</translation>
    </message>
    <message>
        <source>Self CPU Mem</source>
        <translation>Eigener CPU-Speicher</translation>
    </message>
    <message>
        <source>Self allocated</source>
        <translation>Selbst alloziert</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>Eingabeformen</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>Wall time inside the calls minus the calls nested in them</source>
        <translation>Wanduhrzeit in den Aufrufen abzüglich der darin verschachtelten Aufrufe</translation>
    </message>
    <message>
        <source>Share of the time inside recorded scopes</source>
        <translation>Anteil an der Zeit in aufgezeichneten Bereichen</translation>
    </message>
    <message>
        <source>Wall time inside the calls, nested calls included</source>
        <translation>Wanduhrzeit in den Aufrufen, verschachtelte Aufrufe eingeschlossen</translation>
    </message>
    <message>
        <source>GPU time, where measured</source>
        <translation>GPU-Zeit, wo gemessen</translation>
    </message>
    <message>
        <source>Bytes allocated inside, nested calls included</source>
        <translation>Darin allozierte Bytes, verschachtelte Aufrufe eingeschlossen</translation>
    </message>
    <message>
        <source>Bytes allocated minus bytes freed in the row itself (can be negative)</source>
        <translation>Allozierte minus freigegebene Bytes in der Zeile selbst (kann negativ sein)</translation>
    </message>
    <message>
        <source>Bytes of the allocations attributed to this row</source>
        <translation>Bytes der dieser Zeile zugeordneten Allokationen</translation>
    </message>
    <message>
        <source>Matmul FLOPs from the recorded input shapes (--record-shapes)</source>
        <translation>Matmul-FLOPs aus den aufgezeichneten Eingabeformen (--record-shapes)</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Gesendet</translation>
    </message>
    <message>
        <source>Payload the c10d collectives handed to the other ranks</source>
        <translation>Nutzlast, die die c10d-Kollektive an die anderen Ränge übergaben</translation>
    </message>
</context>
<context>
    <name>memscope::OverlayChart</name>
    <message>
        <source>Compare two runs to see them on one axis.</source>
        <translation>Vergleichen Sie zwei Läufe, um sie auf einer Achse zu sehen.</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A: %1</translation>
    </message>
    <message>
        <source>B: %1, aligned to A&apos;s steps</source>
        <translation>B: %1, an den Schritten von A ausgerichtet</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>reserviert</translation>
    </message>
    <message>
        <source>A&apos;s allocation and free events; click to compare the runs there</source>
        <translation>Allokations- und Freigabeereignisse von A; ein Klick vergleicht die Läufe dort</translation>
    </message>
</context>
<context>
    <name>memscope::PeakCategoryChart</name>
    <message>
        <source>MiB at the peak</source>
        <translation>MiB an der Spitze</translation>
    </message>
    <message>
        <source>Bytes by category at the peak (%1), categories inferred from the snapshot</source>
        <translation>Bytes nach Kategorie an der Spitze (%1), Kategorien aus dem Snapshot abgeleitet</translation>
    </message>
    <message>
        <source>Bytes by category at the peak (%1)</source>
        <translation>Bytes nach Kategorie an der Spitze (%1)</translation>
    </message>
    <message>
        <source>At the peak</source>
        <translation>An der Spitze</translation>
    </message>
</context>
<context>
    <name>memscope::PlannerPage</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation>%1 Stunden</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 Tage</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>Gradienten</translation>
    </message>
    <message>
        <source>Optimizer state</source>
        <translation>Optimiererzustand</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>Eingaben</translation>
    </message>
    <message>
        <source>Activations (incl. autocast cache, loss)</source>
        <translation>Aktivierungen (inkl. Autocast-Cache, Loss)</translation>
    </message>
    <message>
        <source>Temporaries</source>
        <translation>Temporäre Tensoren</translation>
    </message>
    <message>
        <source>Context and allocator overhead</source>
        <translation>Kontext und Allokator-Mehrbedarf</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Device and cluster</source>
        <translation>Gerät und Cluster</translation>
    </message>
    <message>
        <source>Prediction</source>
        <translation>Vorhersage</translation>
    </message>
    <message>
        <source>Strategy comparison</source>
        <translation>Strategievergleich</translation>
    </message>
    <message>
        <source>Recommendations</source>
        <translation>Empfehlungen</translation>
    </message>
    <message>
        <source>Predicted against measured (open run)</source>
        <translation>Vorhergesagt gegen gemessen (geöffneter Lauf)</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>Gerät:</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPUs:</translation>
    </message>
    <message>
        <source>Strategy:</source>
        <translation>Strategie:</translation>
    </message>
    <message>
        <source>ZeRO stage:</source>
        <translation>ZeRO-Stufe:</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>Strategie</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>Pro GPU</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>Passt</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>Schrittzeit</translation>
    </message>
    <message>
        <source>Efficiency</source>
        <translation>Effizienz</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>Priorität</translation>
    </message>
    <message>
        <source>Recommendation</source>
        <translation>Empfehlung</translation>
    </message>
    <message>
        <source>Saves per GPU</source>
        <translation>Ersparnis pro GPU</translation>
    </message>
    <message>
        <source>Option</source>
        <translation>Option</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>Komponente</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>Vorhergesagt</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>Gemessen</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>bf16 and fp16 are autocast: fp32 weights stay, a low-precision copy of each weight is cached for the step</source>
        <translation>bf16 und fp16 sind Autocast: die fp32-Gewichte bleiben, eine Kopie jedes Gewichts in niedriger Genauigkeit wird für den Schritt zwischengespeichert</translation>
    </message>
    <message>
        <source>memory-efficient keeps no S x S matrices (like flash attention on a GPU)</source>
        <translation>memory-efficient hält keine S x S-Matrizen (wie Flash Attention auf einer GPU)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cannot predict:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Keine Vorhersage möglich:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#2e7d32&apos;&gt;Fits&lt;/b&gt; on %1: %2 of %3 usable, %4 headroom</source>
        <translation>&lt;b style=&apos;color:#2e7d32&apos;&gt;Passt&lt;/b&gt; auf %1: %2 von %3 nutzbar, %4 Reserve</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#c62828&apos;&gt;Exceeds capacity&lt;/b&gt; of %1: %2 needed, %3 usable, %4 over</source>
        <translation>&lt;b style=&apos;color:#c62828&apos;&gt;Übersteigt die Kapazität&lt;/b&gt; von %1: %2 nötig, %3 nutzbar, %4 zu viel</translation>
    </message>
    <message>
        <source>Predicted peak per GPU: %1 (%2 bytes); step 1: %3, steady: %4</source>
        <translation>Vorhergesagte Spitze pro GPU: %1 (%2 Bytes); Schritt 1: %3, stationär: %4</translation>
    </message>
    <message>
        <source>Forward only: inference under torch.no_grad %1; forward with autograd on (every activation kept, no backward) %2</source>
        <translation>Nur vorwärts: Inferenz unter torch.no_grad %1; vorwärts mit Autograd (jede Aktivierung behalten, kein Rückwärtsdurchlauf) %2</translation>
    </message>
    <message>
        <source>Step time %1, %2 tokens/s, scaling efficiency %3%; MFU %4% (%5)</source>
        <translation>Schrittzeit %1, %2 Tokens/s, Skalierungseffizienz %3%; MFU %4% (%5)</translation>
    </message>
    <message>
        <source>Bottlenecks: %1</source>
        <translation>Engpässe: %1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>MiB per GPU</source>
        <translation>MiB pro GPU</translation>
    </message>
    <message>
        <source>Memory at the predicted peak</source>
        <translation>Speicher an der vorhergesagten Spitze</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>Spitze</translation>
    </message>
</context>
<context>
    <name>memscope::ProgramFitPanel</name>
    <message>
        <source>%1: %2 points (%3 failed), %4 left out to check the fit; largest residual %5% on the points fitted, %6% on those left out</source>
        <translation>%1: %2 Punkte (%3 fehlgeschlagen), %4 zur Prüfung der Anpassung ausgelassen; größtes Residuum %5% auf den angepassten Punkten, %6% auf den ausgelassenen</translation>
    </message>
    <message>
        <source>At the peak: %1.</source>
        <translation>An der Spitze: %1.</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>Rückwärts</translation>
    </message>
    <message>
        <source>Cannot use %1: %2</source>
        <translation>%1 ist nicht verwendbar: %2</translation>
    </message>
    <message>
        <source>Fitting %1 ...</source>
        <translation>%1 wird angepasst ...</translation>
    </message>
    <message>
        <source>Forward (autograd on)</source>
        <translation>Vorwärts (Autograd an)</translation>
    </message>
    <message>
        <source>Largest batch that fits: %1.</source>
        <translation>Größter Batch, der passt: %1.</translation>
    </message>
    <message>
        <source>No sweep open</source>
        <translation>Kein Sweep geöffnet</translation>
    </message>
    <message>
        <source>Not even batch 1 fits.</source>
        <translation>Nicht einmal Batch 1 passt.</translation>
    </message>
    <message>
        <source>On %1: about %2 held of %3 usable: does not fit.</source>
        <translation>Auf %1: etwa %2 belegt von %3 nutzbar: passt nicht.</translation>
    </message>
    <message>
        <source>On %1: about %2 held of %3 usable: fits.</source>
        <translation>Auf %1: etwa %2 belegt von %3 nutzbar: passt.</translation>
    </message>
    <message>
        <source>Open sweep...</source>
        <translation>Sweep öffnen...</translation>
    </message>
    <message>
        <source>Open the directory of a sweep of your program</source>
        <translation>Verzeichnis eines Sweeps Ihres Programms öffnen</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>Outside what the fit can say: %1</source>
        <translation>Außerhalb dessen, was die Anpassung sagen kann: %1</translation>
    </message>
    <message>
        <source>Peak %1 (%2, at %3).</source>
        <translation>Spitze %1 (%2, bei %3).</translation>
    </message>
    <message>
        <source>Sizes:</source>
        <translation>Größen:</translation>
    </message>
    <message>
        <source>Steady</source>
        <translation>Stationär</translation>
    </message>
    <message>
        <source>Step 1</source>
        <translation>Schritt 1</translation>
    </message>
    <message>
        <source>Type the sizes to predict, e.g. d=2560,L=32,s=512,b=4</source>
        <translation>Geben Sie die vorherzusagenden Größen ein, z. B. d=2560,L=32,s=512,b=4</translation>
    </message>
    <message>
        <source>Your program, fitted from a sweep (memscope-cli sweep --python)</source>
        <translation>Ihr Programm, angepasst aus einem Sweep (memscope-cli sweep --python)</translation>
    </message>
</context>
<context>
    <name>memscope::RankLanesView</name>
    <message>
        <source>rank %1</source>
        <translation>Rang %1</translation>
    </message>
    <message>
        <source>no recording</source>
        <translation>keine Aufzeichnung</translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation>Spitze %1</translation>
    </message>
    <message>
        <source>(step %1, %2)</source>
        <translation>(Schritt %1, %2)</translation>
    </message>
    <message>
        <source>Laying out %1 ranks…</source>
        <translation>Ordne %1 Ränge an…</translation>
    </message>
    <message>
        <source>Open a run directory to see all its ranks</source>
        <translation>Ein Laufverzeichnis öffnen, um alle seine Ränge zu sehen</translation>
    </message>
    <message>
        <source>All ranks</source>
        <translation>Alle Ränge</translation>
    </message>
    <message>
        <source>%1 ranks · steps aligned · one memory scale (highest peak %2)</source>
        <translation>%1 Ränge · Schritte ausgerichtet · eine Speicherskala (höchste Spitze %2)</translation>
    </message>
    <message>
        <source>no recording of this rank</source>
        <translation>keine Aufzeichnung dieses Rangs</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>Click a lane: its rank in detail; double-click: the detailed timeline</source>
        <translation>Klick auf eine Spur: ihr Rang im Detail; Doppelklick: die detaillierte Zeitleiste</translation>
    </message>
    <message>
        <source>Each rank&apos;s allocation and free events, stretched between step starts so that every step begins at the same place</source>
        <translation>Die Allokations- und Freigabeereignisse jedes Rangs, zwischen den Schrittanfängen gestreckt, sodass jeder Schritt an derselben Stelle beginnt</translation>
    </message>
    <message>
        <source>%1 in use</source>
        <translation>%1 belegt</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>memscope::RankRunController</name>
    <message>
        <source>A run is already going.</source>
        <translation>Ein Lauf ist bereits in Arbeit.</translation>
    </message>
    <message>
        <source>A run of several processes needs memscope-cli, which is not at %1.</source>
        <translation>Ein Lauf mehrerer Prozesse braucht memscope-cli, das nicht unter %1 liegt.</translation>
    </message>
    <message>
        <source>Cannot create the folder %1 for the ranks&apos; files.</source>
        <translation>Der Ordner %1 für die Dateien der Ränge kann nicht angelegt werden.</translation>
    </message>
    <message>
        <source>memscope-cli crashed.</source>
        <translation>memscope-cli ist abgestürzt.</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>%1 kann nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>Run started on %1 processes (%2) into %3: memscope-cli %4</source>
        <translation>Lauf auf %1 Prozessen (%2) nach %3 gestartet: memscope-cli %4</translation>
    </message>
    <message>
        <source>Stopping every rank at its next module boundary...</source>
        <translation>Hält jeden Rang an seiner nächsten Modulgrenze an...</translation>
    </message>
    <message>
        <source>%1 (step %2/%3, peak %4)</source>
        <translation>%1 (Schritt %2/%3, Spitze %4)</translation>
    </message>
    <message>
        <source>%1 (starting)</source>
        <translation>%1 (startet)</translation>
    </message>
    <message>
        <source>Cannot follow a rank live: %1</source>
        <translation>Ein Rang kann nicht live verfolgt werden: %1</translation>
    </message>
    <message>
        <source>rank %1: %2</source>
        <translation>Rang %1: %2</translation>
    </message>
    <message>
        <source>memscope-cli exited with status %1.</source>
        <translation>memscope-cli wurde mit Status %1 beendet.</translation>
    </message>
    <message>
        <source>Rebuilt from its journal: %1</source>
        <translation>Aus seinem Journal wiederhergestellt: %1</translation>
    </message>
    <message>
        <source>Could not rebuild from its journal: %1</source>
        <translation>Konnte nicht aus seinem Journal wiederhergestellt werden: %1</translation>
    </message>
    <message>
        <source>Cannot write the run&apos;s options to %1.</source>
        <translation>Die Optionen des Laufs können nicht nach %1 geschrieben werden.</translation>
    </message>
    <message>
        <source>Python program started into %1: memscope-cli %2</source>
        <translation>Python-Programm gestartet nach %1: memscope-cli %2</translation>
    </message>
    <message>
        <source>%1 (step %2, peak %3)</source>
        <translation>%1 (Schritt %2, Spitze %3)</translation>
    </message>
    <message>
        <source>first process</source>
        <translation>erster Prozess</translation>
    </message>
    <message>
        <source>process %1</source>
        <translation>Prozess %1</translation>
    </message>
    <message>
        <source>rank %1 (pid %2)</source>
        <translation>Rang %1 (PID %2)</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
</context>
<context>
    <name>memscope::RankSummaryTable</name>
    <message>
        <source>%1 (shown)</source>
        <translation>%1 (angezeigt)</translation>
    </message>
    <message>
        <source>no recording</source>
        <translation>keine Aufzeichnung</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Ränge</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>Peak allocated</source>
        <translation>Spitze belegt</translation>
    </message>
    <message>
        <source>Step 1 peak</source>
        <translation>Spitze Schritt 1</translation>
    </message>
    <message>
        <source>Steady peak</source>
        <translation>Spitze im Dauerbetrieb</translation>
    </message>
    <message>
        <source>Avg step</source>
        <translation>Mittl. Schritt</translation>
    </message>
    <message>
        <source>Collective payload</source>
        <translation>Nutzlast der Kollektive</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
</context>
<context>
    <name>memscope::RecentFilesMenu</name>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>Clear Recent Files</source>
        <translation>Liste zuletzt geöffneter Dateien leeren</translation>
    </message>
</context>
<context>
    <name>memscope::RecoveryOffer</name>
    <message>
        <source>Recover Unfinished Runs</source>
        <translation>Unvollendete Läufe wiederherstellen</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) ended before they were saved (the app was closed or crashed). Recover what they recorded?</source>
        <translation>
            <numerusform>%n Lauf endete, bevor er gespeichert wurde (die Anwendung wurde geschlossen oder ist abgestürzt). Das Aufgezeichnete wiederherstellen?</numerusform>
            <numerusform>%n Läufe endeten, bevor sie gespeichert wurden (die Anwendung wurde geschlossen oder ist abgestürzt). Das Aufgezeichnete wiederherstellen?</numerusform>
        </translation>
    </message>
    <message>
        <source>Recover</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Später</translation>
    </message>
</context>
<context>
    <name>memscope::ReservedLinePainter</name>
    <message>
        <source>Reserved (caching allocator)</source>
        <translation>Reserviert (Caching-Allocator)</translation>
    </message>
    <message>
        <source>No caching allocator (CPU): nothing reserved beyond allocated</source>
        <translation>Kein Caching-Allocator (CPU): nichts über das Allozierte hinaus reserviert</translation>
    </message>
    <message>
        <source>No reserved memory recorded</source>
        <translation>Kein reservierter Speicher aufgezeichnet</translation>
    </message>
</context>
<context>
    <name>memscope::RooflinePanel</name>
    <message>
        <source>memory-bound</source>
        <translation>speichergebunden</translation>
    </message>
    <message>
        <source>mixed</source>
        <translation>gemischt</translation>
    </message>
    <message>
        <source>compute-bound</source>
        <translation>rechengebunden</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>%1 (estimated)</source>
        <translation>%1 (geschätzt)</translation>
    </message>
    <message>
        <source>%1 read (estimated from shapes and dtype) + %2 written (allocated)</source>
        <translation>%1 gelesen (geschätzt aus Formen und Datentyp) + %2 geschrieben (alloziert)</translation>
    </message>
    <message>
        <source>%1 FLOP/byte</source>
        <translation>%1 FLOP/Byte</translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation>FLOP/s</translation>
    </message>
    <message>
        <source> (%1 % of peak)</source>
        <translation> (%1 % der Spitze)</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/s</translation>
    </message>
    <message>
        <source>Bytes moved are an estimate: inputs from the recorded shapes at the run&apos;s element size (%1; under autocast matmuls read 2 bytes, other ops 4), outputs from the bytes each call allocated. FLOPs count matmul-like ops only. Classification: below %2 FLOP/byte memory-bound, %2 to %3 mixed, above %3 compute-bound.</source>
        <translation>Bewegte Bytes sind eine Schätzung: Eingaben aus den aufgezeichneten Formen mit der Elementgröße des Laufs (%1; unter Autocast lesen Matmuls 2 Bytes, andere Ops 4), Ausgaben aus den Bytes, die jeder Aufruf alloziert hat. FLOPs zählen nur Matmul-artige Ops. Einordnung: unter %2 FLOP/Byte speichergebunden, %2 bis %3 gemischt, über %3 rechengebunden.</translation>
    </message>
    <message numerus="yes">
        <source>Per step: averages over %n step(s); the step&apos;s rates are against its wall time.</source>
        <translation>
            <numerusform>Pro Schritt: Mittel über %n Schritt; die Raten des Schritts beziehen sich auf seine Wanduhrzeit.</numerusform>
            <numerusform>Pro Schritt: Mittel über %n Schritte; die Raten des Schritts beziehen sich auf seine Wanduhrzeit.</numerusform>
        </translation>
    </message>
    <message>
        <source>This run has no input shapes: record it with memscope-cli record --record-shapes for FLOPs, bytes moved and the roofline.</source>
        <translation>Dieser Lauf hat keine Eingabeformen: mit memscope-cli record --record-shapes aufzeichnen für FLOPs, bewegte Bytes und das Roofline-Modell.</translation>
    </message>
    <message>
        <source>Peak FLOP/s: %1.</source>
        <translation>Spitzen-FLOP/s: %1.</translation>
    </message>
    <message>
        <source>Peak bandwidth: %1.</source>
        <translation>Spitzenbandbreite: %1.</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>Roofline</translation>
    </message>
    <message>
        <source>FLOPs per step:</source>
        <translation>FLOPs pro Schritt:</translation>
    </message>
    <message>
        <source>Bytes moved per step:</source>
        <translation>Bewegte Bytes pro Schritt:</translation>
    </message>
    <message>
        <source>Arithmetic intensity:</source>
        <translation>Arithmetische Intensität:</translation>
    </message>
    <message>
        <source>Step is:</source>
        <translation>Der Schritt ist:</translation>
    </message>
    <message>
        <source>Achieved FLOP/s:</source>
        <translation>Erreichte FLOP/s:</translation>
    </message>
    <message>
        <source>Achieved bandwidth:</source>
        <translation>Erreichte Bandbreite:</translation>
    </message>
    <message>
        <source>Peak FLOP/s:</source>
        <translation>Spitzen-FLOP/s:</translation>
    </message>
    <message>
        <source>Peak bandwidth:</source>
        <translation>Spitzenbandbreite:</translation>
    </message>
    <message>
        <source>Ridge point:</source>
        <translation>Knickpunkt:</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>Aufrufe</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>Bytes read (est.)</source>
        <translation>Gelesene Bytes (geschätzt)</translation>
    </message>
    <message>
        <source>Bytes written</source>
        <translation>Geschriebene Bytes</translation>
    </message>
    <message>
        <source>FLOP/byte</source>
        <translation>FLOP/Byte</translation>
    </message>
    <message>
        <source>Achieved FLOP/s</source>
        <translation>Erreichte FLOP/s</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>Bandbreite</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Einordnung</translation>
    </message>
</context>
<context>
    <name>memscope::RunController</name>
    <message>
        <source>A run is already going.</source>
        <translation>Ein Lauf ist bereits in Arbeit.</translation>
    </message>
    <message>
        <source>Run started: %1, batch %2, sequence %3, %4 steps, %5, attention %6, checkpointing %7, %8</source>
        <translation>Lauf gestartet: %1, Batch %2, Sequenz %3, %4 Schritte, %5, Attention %6, Checkpointing %7, %8</translation>
    </message>
    <message>
        <source>Stopping at the next module boundary...</source>
        <translation>Hält an der nächsten Modulgrenze an...</translation>
    </message>
    <message>
        <source>Step %1/%2%3: Loss = %4, Time = %5 seconds, Peak = %6</source>
        <translation>Schritt %1/%2%3: Loss = %4, Zeit = %5 Sekunden, Spitze = %6</translation>
    </message>
    <message>
        <source> (warmup)</source>
        <translation> (Aufwärmen)</translation>
    </message>
    <message>
        <source>Could not keep the run as %1: %2</source>
        <translation>Der Lauf konnte nicht als %1 aufbewahrt werden: %2</translation>
    </message>
    <message>
        <source>The run stopped: out of memory. %1</source>
        <translation>Der Lauf wurde beendet: Speicher erschöpft. %1</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>Der Lauf ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The run was stopped; everything recorded so far is kept.</source>
        <translation>Der Lauf wurde angehalten; alles bisher Aufgezeichnete bleibt erhalten.</translation>
    </message>
    <message>
        <source>The run finished.</source>
        <translation>Der Lauf ist abgeschlossen.</translation>
    </message>
    <message>
        <source>The live view stopped updating: %1. The run goes on and is shown when it ends.</source>
        <translation>Die Live-Ansicht wird nicht mehr aktualisiert: %1. Der Lauf geht weiter und wird gezeigt, wenn er endet.</translation>
    </message>
    <message>
        <source>The run failed: %1. Its journal is kept: Memscope offers to recover it when it starts next.</source>
        <translation>Der Lauf ist fehlgeschlagen: %1. Sein Journal bleibt erhalten: Memscope bietet beim nächsten Start an, ihn wiederherzustellen.</translation>
    </message>
</context>
<context>
    <name>memscope::RunFileDialogs</name>
    <message>
        <source>Runs and snapshots (*.memscope *.pickle *.pkl manifest.json);;Memscope runs (*.memscope);;Multi-rank runs (manifest.json);;PyTorch memory snapshots (*.pickle *.pkl);;All files (*)</source>
        <translation>Läufe und Snapshots (*.memscope *.pickle *.pkl manifest.json);;Memscope-Läufe (*.memscope);;Mehrrang-Läufe (manifest.json);;PyTorch-Speicher-Snapshots (*.pickle *.pkl);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open Run</source>
        <translation>Lauf öffnen</translation>
    </message>
    <message>
        <source>Open Part of Run</source>
        <translation>Teil eines Laufs öffnen</translation>
    </message>
    <message>
        <source>Runs and snapshots (*.memscope *.pickle *.pkl);;Memscope runs (*.memscope);;PyTorch memory snapshots (*.pickle *.pkl);;All files (*)</source>
        <translation>Läufe und Snapshots (*.memscope *.pickle *.pkl);;Memscope-Läufe (*.memscope);;PyTorch-Speicher-Snapshots (*.pickle *.pkl);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Range to load: event indices (1000000:2000000) or times since the start with a unit (2.5s:4s, 300ms:, :1.5min).
Allocations live at its start count as present from the start. Leave empty for the whole run.</source>
        <translation>Zu ladender Bereich: Ereignisindizes (1000000:2000000) oder Zeiten seit dem Start mit Einheit (2.5s:4s, 300ms:, :1.5min).
Allokationen, die an seinem Anfang leben, gelten als von Anfang an vorhanden. Leer lassen für den ganzen Lauf.</translation>
    </message>
    <message>
        <source>Not a Range</source>
        <translation>Kein Bereich</translation>
    </message>
    <message>
        <source>Compare With Run</source>
        <translation>Mit Lauf vergleichen</translation>
    </message>
    <message>
        <source>Save Run</source>
        <translation>Lauf speichern</translation>
    </message>
    <message>
        <source>Memscope runs (*.memscope)</source>
        <translation>Memscope-Läufe (*.memscope)</translation>
    </message>
</context>
<context>
    <name>memscope::RunLauncher</name>
    <message>
        <source>%1 on %2 processes (%3)</source>
        <translation>%1 auf %2 Prozessen (%3)</translation>
    </message>
    <message>
        <source>The run was kept as %1 (File &gt; Save Run As to put it elsewhere).</source>
        <translation>Der Lauf wurde als %1 aufbewahrt (Datei &gt; Lauf speichern unter, um ihn woanders abzulegen).</translation>
    </message>
    <message>
        <source>Out of memory at step %1</source>
        <translation>Speicher erschöpft in Schritt %1</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Stopped after step %1 of %2</source>
        <translation>Angehalten nach Schritt %1 von %2</translation>
    </message>
    <message>
        <source>Finished %1 steps</source>
        <translation>%1 Schritte abgeschlossen</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>Der Lauf ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The run was stopped; every rank kept what it recorded.</source>
        <translation>Der Lauf wurde angehalten; jeder Rang hat behalten, was er aufgezeichnet hat.</translation>
    </message>
    <message>
        <source>The run finished.</source>
        <translation>Der Lauf ist abgeschlossen.</translation>
    </message>
    <message>
        <source>No rank recorded anything into %1.</source>
        <translation>Kein Rang hat etwas nach %1 aufgezeichnet.</translation>
    </message>
    <message>
        <source>the Python program %1</source>
        <translation>das Python-Programm %1</translation>
    </message>
    <message>
        <source>The program exited with status %1</source>
        <translation>Das Programm endete mit Status %1</translation>
    </message>
    <message>
        <source>The program exited with status %1; what it recorded is kept.</source>
        <translation>Das Programm endete mit Status %1; was es aufgezeichnet hat, bleibt erhalten.</translation>
    </message>
    <message numerus="yes">
        <source>Finished after %n step(s)</source>
        <translation>
            <numerusform>Nach %n Schritt beendet</numerusform>
            <numerusform>Nach %n Schritten beendet</numerusform>
        </translation>
    </message>
    <message>
        <source>A run is already going.</source>
        <translation>Ein Lauf ist bereits in Arbeit.</translation>
    </message>
</context>
<context>
    <name>memscope::RunLoadProgress</name>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop opening this run</source>
        <translation>Öffnen dieses Laufs abbrechen</translation>
    </message>
    <message>
        <source>Opening %p%</source>
        <translation>Öffnen %p%</translation>
    </message>
</context>
<context>
    <name>memscope::RunPanel</name>
    <message>
        <source>Sets up a new run. The run that is open keeps its own settings.</source>
        <translation>Richtet einen neuen Lauf ein. Der geöffnete Lauf behält seine eigenen Einstellungen.</translation>
    </message>
    <message>
        <source>Same settings as the open run</source>
        <translation>Einstellungen des geöffneten Laufs übernehmen</translation>
    </message>
    <message>
        <source>Fill the form with the open run&apos;s recorded configuration</source>
        <translation>Das Formular mit der aufgezeichneten Konfiguration des geöffneten Laufs füllen</translation>
    </message>
    <message>
        <source>The open run&apos;s configuration is not known (an import without --config, or no run is open)</source>
        <translation>Die Konfiguration des geöffneten Laufs ist nicht bekannt (ein Import ohne --config, oder kein Lauf ist geöffnet)</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Precision and memory techniques</source>
        <translation>Genauigkeit und Speichertechniken</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>eigene</translation>
    </message>
    <message>
        <source>all cores (%1)</source>
        <translation>alle Kerne (%1)</translation>
    </message>
    <message>
        <source>Recording:</source>
        <translation>Aufzeichnung:</translation>
    </message>
    <message>
        <source>Also record each operator&apos;s input shapes: FLOPs, arithmetic intensity and the roofline in the summary (--record-shapes; slightly slower)</source>
        <translation>Auch die Eingabeformen jedes Operators aufzeichnen: FLOPs, arithmetische Intensität und das Roofline-Modell in der Zusammenfassung (--record-shapes; etwas langsamer)</translation>
    </message>
    <message>
        <source>Record input shapes</source>
        <translation>Eingabeformen aufzeichnen</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Run (F5)</source>
        <translation>Ausführen (F5)</translation>
    </message>
    <message>
        <source>Train with these settings and record every allocation</source>
        <translation>Mit diesen Einstellungen trainieren und jede Allokation aufzeichnen</translation>
    </message>
    <message>
        <source>Stop (Esc)</source>
        <translation>Stopp (Esc)</translation>
    </message>
    <message>
        <source>Stop the run; everything recorded so far is kept</source>
        <translation>Den Lauf anhalten; alles bisher Aufgezeichnete bleibt erhalten</translation>
    </message>
    <message>
        <source>GPU %1: %2</source>
        <translation>GPU %1: %2</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>Prozesse</translation>
    </message>
    <message>
        <source>Processes:</source>
        <translation>Prozesse:</translation>
    </message>
    <message>
        <source>Train on this many processes (ranks) of memscope-cli on c10d, each recorded; 1 trains in the application itself (--nproc)</source>
        <translation>Mit so vielen Prozessen (Rängen) von memscope-cli auf c10d trainieren, jeder aufgezeichnet; 1 trainiert in der Anwendung selbst (--nproc)</translation>
    </message>
    <message>
        <source>Strategy:</source>
        <translation>Strategie:</translation>
    </message>
    <message>
        <source>How the ranks share the training: data parallel or ZeRO stage 1 to 3 (--parallel)</source>
        <translation>Wie sich die Ränge das Training teilen: Datenparallelität oder ZeRO-Stufe 1 bis 3 (--parallel)</translation>
    </message>
    <message>
        <source>Bucket size:</source>
        <translation>Bucket-Größe:</translation>
    </message>
    <message>
        <source>Gradient bucket size of the collectives (--bucket-mib)</source>
        <translation>Größe der Gradienten-Buckets der Kollektive (--bucket-mib)</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>Output folder:</source>
        <translation>Ausgabeordner:</translation>
    </message>
    <message>
        <source>The run directory the ranks record into (one file per rank and manifest.json); empty: a new folder beside the kept runs (--out)</source>
        <translation>Das Laufverzeichnis, in das die Ränge aufzeichnen (eine Datei je Rang und manifest.json); leer: ein neuer Ordner neben den aufbewahrten Läufen (--out)</translation>
    </message>
    <message>
        <source>new folder beside the kept runs</source>
        <translation>neuer Ordner neben den aufbewahrten Läufen</translation>
    </message>
    <message>
        <source>DDP (gradients all-reduced)</source>
        <translation>DDP (Gradienten per All-Reduce)</translation>
    </message>
    <message>
        <source>ZeRO-1 (optimizer state sharded)</source>
        <translation>ZeRO-1 (Optimiererzustand verteilt)</translation>
    </message>
    <message>
        <source>ZeRO-2 (optimizer state and gradients sharded)</source>
        <translation>ZeRO-2 (Optimiererzustand und Gradienten verteilt)</translation>
    </message>
    <message>
        <source>ZeRO-3 (parameters sharded too)</source>
        <translation>ZeRO-3 (auch die Parameter verteilt)</translation>
    </message>
    <message>
        <source>%1 is a file; a run of several processes writes a folder there (--out).</source>
        <translation>%1 ist eine Datei; ein Lauf mehrerer Prozesse schreibt dort einen Ordner (--out).</translation>
    </message>
    <message>
        <source>%1 is not empty; choose a new or empty folder for the ranks&apos; files (--out).</source>
        <translation>%1 ist nicht leer; wählen Sie einen neuen oder leeren Ordner für die Dateien der Ränge (--out).</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>Programm</translation>
    </message>
    <message>
        <source>Built-in Tiny LLaMA</source>
        <translation>Eingebautes Tiny LLaMA</translation>
    </message>
    <message>
        <source>Python program</source>
        <translation>Python-Programm</translation>
    </message>
    <message>
        <source>train.py, or -m package.module</source>
        <translation>train.py oder -m paket.modul</translation>
    </message>
    <message>
        <source>--epochs 3 --lr 0.01</source>
        <translation>--epochs 3 --lr 0.01</translation>
    </message>
    <message>
        <source>the current folder</source>
        <translation>der aktuelle Ordner</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>Quelle:</translation>
    </message>
    <message>
        <source>Train the built-in Tiny LLaMA with the settings below, or record a PyTorch program of your own as it runs (memscope-cli record --python)</source>
        <translation>Das eingebaute Tiny LLaMA mit den Einstellungen unten trainieren oder ein eigenes PyTorch-Programm während des Laufs aufzeichnen (memscope-cli record --python)</translation>
    </message>
    <message>
        <source>Script:</source>
        <translation>Skript:</translation>
    </message>
    <message>
        <source>The program&apos;s script, or -m and a module, as you would give them to python</source>
        <translation>Das Skript des Programms oder -m und ein Modul, wie man sie python übergibt</translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation>Argumente:</translation>
    </message>
    <message>
        <source>The program&apos;s own arguments (quoted as in a shell)</source>
        <translation>Die eigenen Argumente des Programms (wie in einer Shell quotiert)</translation>
    </message>
    <message>
        <source>Working folder:</source>
        <translation>Arbeitsordner:</translation>
    </message>
    <message>
        <source>Where the program runs; empty: Memscope&apos;s current folder</source>
        <translation>Wo das Programm läuft; leer: der aktuelle Ordner von Memscope</translation>
    </message>
    <message>
        <source>Interpreter:</source>
        <translation>Interpreter:</translation>
    </message>
    <message>
        <source>The Python whose torch the recorder was built against (--python-exe)</source>
        <translation>Das Python, gegen dessen torch der Recorder gebaut wurde (--python-exe)</translation>
    </message>
    <message>
        <source>--python: name the program&apos;s script (or -m and a module)</source>
        <translation>--python: das Skript des Programms angeben (oder -m und ein Modul)</translation>
    </message>
    <message>
        <source>%1 is not a folder (Working folder)</source>
        <translation>%1 ist kein Ordner (Arbeitsordner)</translation>
    </message>
    <message>
        <source>--python: %1 does not exist</source>
        <translation>--python: %1 existiert nicht</translation>
    </message>
    <message>
        <source>--python: -m needs a module</source>
        <translation>--python: -m braucht ein Modul</translation>
    </message>
</context>
<context>
    <name>memscope::RunPlaceholder</name>
    <message>
        <source>No run is open.</source>
        <translation>Es ist kein Lauf geöffnet.</translation>
    </message>
    <message>
        <source>Press Run (F5) to train with the settings on the left and watch the memory live, open a recorded run or a PyTorch snapshot with File &gt; Open Run (Ctrl+O), or drop one here.</source>
        <translation>Drücken Sie Ausführen (F5), um mit den Einstellungen links zu trainieren und den Speicher live zu verfolgen, öffnen Sie einen aufgezeichneten Lauf oder einen PyTorch-Snapshot mit Datei &gt; Lauf öffnen (Strg+O), oder ziehen Sie eine Datei hierher.</translation>
    </message>
</context>
<context>
    <name>memscope::RunSession</name>
    <message>
        <source>unknown error</source>
        <translation>unbekannter Fehler</translation>
    </message>
    <message>
        <source>Memscope could not open %1.

%2</source>
        <translation>Memscope konnte %1 nicht öffnen.

%2</translation>
    </message>
    <message>
        <source>%1 rank %2</source>
        <translation>%1 Rang %2</translation>
    </message>
    <message>
        <source>%1 events</source>
        <translation>%1 Ereignisse</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>rank %1: %2</source>
        <translation>Rang %1: %2</translation>
    </message>
    <message>
        <source>Memscope could not read any rank of %1.

%2</source>
        <translation>Memscope konnte keinen Rang von %1 lesen.

%2</translation>
    </message>
    <message>
        <source>%1 of %2 ranks</source>
        <translation>%1 von %2 Rängen</translation>
    </message>
    <message>
        <source>Memscope could not write %1.

%2</source>
        <translation>Memscope konnte %1 nicht schreiben.

%2</translation>
    </message>
    <message>
        <source>%1, pid %2</source>
        <translation>%1, PID %2</translation>
    </message>
    <message>
        <source>%1; PARTIAL: %2, what was read before the damage is shown</source>
        <translation>%1; UNVOLLSTÄNDIG: %2, gezeigt wird, was vor der Beschädigung gelesen wurde</translation>
    </message>
    <message>
        <source>%1 needs about %2 GB of memory to be shown whole, and %3 GB are available: its first part is shown, not the rest. memscope-cli info summarizes the whole file in less.</source>
        <translation>%1 braucht etwa %2 GB Arbeitsspeicher, um ganz gezeigt zu werden, und %3 GB sind frei: Ihr erster Teil wird gezeigt, nicht der Rest. memscope-cli info fasst die ganze Datei mit weniger zusammen.</translation>
    </message>
    <message>
        <source>%1: showing its first %2 entries (%3 of %4 MB) while the rest loads</source>
        <translation>%1: Die ersten %2 Einträge (%3 von %4 MB) werden gezeigt, während der Rest lädt</translation>
    </message>
    <message>
        <source>%1; PREVIEW: the first %2 entries, the whole file does not fit in memory</source>
        <translation>%1; VORSCHAU: die ersten %2 Einträge, die ganze Datei passt nicht in den Arbeitsspeicher</translation>
    </message>
</context>
<context>
    <name>memscope::RunStatusBar</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>Starting...</source>
        <translation>Startet...</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>Schritt %1 von %2</translation>
    </message>
    <message>
        <source>about %1 left</source>
        <translation>noch etwa %1</translation>
    </message>
    <message>
        <source>finishing</source>
        <translation>schließt ab</translation>
    </message>
    <message>
        <source>Peak %1</source>
        <translation>Spitze %1</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Schritt %1</translation>
    </message>
</context>
<context>
    <name>memscope::SearchBar</name>
    <message>
        <source>No matches</source>
        <translation>Keine Treffer</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n Treffer</numerusform>
            <numerusform>%n Treffer</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Search address, operator, module, category, frame</source>
        <translation>Adresse, Operator, Modul, Kategorie, Frame suchen</translation>
    </message>
    <message>
        <source>Find allocations by address (hex, with or without 0x), operator, module, category or any stack frame text (Ctrl+F)</source>
        <translation>Allokationen nach Adresse (hex, mit oder ohne 0x), Operator, Modul, Kategorie oder beliebigem Text eines Stack-Frames suchen (Strg+F)</translation>
    </message>
    <message>
        <source>Previous match (Shift+F3)</source>
        <translation>Vorheriger Treffer (Umschalt+F3)</translation>
    </message>
    <message>
        <source>Next match (F3)</source>
        <translation>Nächster Treffer (F3)</translation>
    </message>
</context>
<context>
    <name>memscope::SegmentPage</name>
    <message>
        <source>reserved %1, allocated %2, fragmentation %3</source>
        <translation>reserviert %1, alloziert %2, Fragmentierung %3</translation>
    </message>
    <message>
        <source>, largest free block %1 (%2 free blocks in %3 segments)</source>
        <translation>, größter freier Block %1 (%2 freie Blöcke in %3 Segmenten)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Reserved peak&lt;/b&gt;: %1 (%2 bytes) at event %3</source>
        <translation>&lt;b&gt;Spitze reserviert&lt;/b&gt;: %1 (%2 Bytes) bei Ereignis %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;At the allocated peak&lt;/b&gt; (event %1): %2</source>
        <translation>&lt;b&gt;An der Spitze alloziert&lt;/b&gt; (Ereignis %1): %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;At the out-of-memory point&lt;/b&gt; (event %1): %2</source>
        <translation>&lt;b&gt;Als der Speicher erschöpft war&lt;/b&gt; (Ereignis %1): %2</translation>
    </message>
    <message>
        <source>No out-of-memory event in this run.</source>
        <translation>In diesem Lauf war der Speicher nie erschöpft.</translation>
    </message>
    <message>
        <source>free (hatched)</source>
        <translation>frei (schraffiert)</translation>
    </message>
    <message>
        <source>Event %1 (step %2, %3 s): %4 segments, reserved %5, allocated %6, fragmentation %7, largest free block %8, %9 free blocks</source>
        <translation>Ereignis %1 (Schritt %2, %3 s): %4 Segmente, reserviert %5, alloziert %6, Fragmentierung %7, größter freier Block %8, %9 freie Blöcke</translation>
    </message>
    <message>
        <source> (the allocated peak)</source>
        <translation> (die Spitze alloziert)</translation>
    </message>
    <message>
        <source> (the out-of-memory point)</source>
        <translation> (Speicher erschöpft)</translation>
    </message>
    <message>
        <source>; %1 live outside every segment</source>
        <translation>; %1 lebendig außerhalb jedes Segments</translation>
    </message>
    <message>
        <source>Event:</source>
        <translation>Ereignis:</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>Spitze</translation>
    </message>
    <message>
        <source>Show the segments at the allocated peak</source>
        <translation>Die Segmente an der Spitze alloziert zeigen</translation>
    </message>
    <message>
        <source>OOM</source>
        <translation>OOM</translation>
    </message>
    <message>
        <source>Show the segments at the out-of-memory event</source>
        <translation>Die Segmente zeigen, als der Speicher erschöpft war</translation>
    </message>
    <message>
        <source>No run open.</source>
        <translation>Kein Lauf geöffnet.</translation>
    </message>
    <message>
        <source>This run has no caching allocator (CPU): the CPU allocator reserves nothing beyond what it hands out, so there are no segments to show.</source>
        <translation>Dieser Lauf hat keinen Caching-Allocator (CPU): Der CPU-Allocator reserviert nichts über das hinaus, was er ausgibt, daher gibt es keine Segmente.</translation>
    </message>
    <message>
        <source>This run has reserved totals but no segments: segment events come from the caching allocator&apos;s trace tracker (LibTorch 2.x) or from an imported snapshot. The timeline shows the reserved line.</source>
        <translation>Dieser Lauf hat reservierte Summen, aber keine Segmente: Segment-Ereignisse kommen vom Trace-Tracker des Caching-Allocators (LibTorch 2.x) oder aus einem importierten Snapshot. Die Zeitleiste zeigt die Linie „Reserviert“.</translation>
    </message>
</context>
<context>
    <name>memscope::SegmentView</name>
    <message>
        <source>%1  %2</source>
        <translation>%1  %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Segment %1&lt;/b&gt;: %2 bytes (%3)</source>
        <translation>&lt;b&gt;Segment %1&lt;/b&gt;: %2 Bytes (%3)</translation>
    </message>
    <message>
        <source>Allocated %1 bytes in %2 blocks, free %3 bytes</source>
        <translation>Alloziert %1 Bytes in %2 Blöcken, frei %3 Bytes</translation>
    </message>
    <message>
        <source>Pool %1, stream %2</source>
        <translation>Pool %1, Stream %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; block: %2 bytes (%3) at offset %4, allocation %5</source>
        <translation>Block &lt;b&gt;%1&lt;/b&gt;: %2 Bytes (%3) bei Offset %4, Allokation %5</translation>
    </message>
    <message>
        <source>Free: %1 bytes (%2) at offset %3</source>
        <translation>Frei: %1 Bytes (%2) bei Offset %3</translation>
    </message>
</context>
<context>
    <name>memscope::StackDiffModel</name>
    <message>
        <source>Stack</source>
        <translation>Stack</translation>
    </message>
    <message>
        <source>A at its peak</source>
        <translation>A an seiner Spitze</translation>
    </message>
    <message>
        <source>B at its peak</source>
        <translation>B an seiner Spitze</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>Differenz</translation>
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
    <message>
        <source>Raw frames</source>
        <translation>Rohe Frames</translation>
    </message>
    <message>
        <source>as the snapshot lists them, innermost first</source>
        <translation>wie der Snapshot sie auflistet, innerster zuerst</translation>
    </message>
    <message>
        <source>Segment</source>
        <translation>Segment</translation>
    </message>
    <message>
        <source>0x%1, %2, pool %3, stream %4</source>
        <translation>0x%1, %2, Pool %3, Stream %4</translation>
    </message>
    <message>
        <source>default</source>
        <translation>Standard</translation>
    </message>
</context>
<context>
    <name>memscope::StackTreeModel</name>
    <message>
        <source>Bytes alive at the chosen time (by default the peak)</source>
        <translation>Zum gewählten Zeitpunkt belegte Bytes (standardmäßig am Spitzenwert)</translation>
    </message>
    <message>
        <source>Bytes of all allocations made (in the range, when one is set)</source>
        <translation>Bytes aller vorgenommenen Allokationen (im Bereich, wenn einer gesetzt ist)</translation>
    </message>
    <message>
        <source>Bytes of allocations freed right away: the next allocation or free after them is their own free (heaptrack&apos;s definition)</source>
        <translation>Bytes sofort freigegebener Allokationen: die nächste Allokation oder Freigabe danach ist ihre eigene Freigabe (Definition von heaptrack)</translation>
    </message>
    <message>
        <source>Allocations made (in the range, when one is set)</source>
        <translation>Vorgenommene Allokationen (im Bereich, wenn einer gesetzt ist)</translation>
    </message>
    <message>
        <source>Frame</source>
        <translation>Frame</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>Spitze</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>Alloziert</translation>
    </message>
    <message>
        <source>Temporary</source>
        <translation>Temporär</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>Allokationen</translation>
    </message>
</context>
<context>
    <name>memscope::SummaryPage</name>
    <message>
        <source>%1, now on this computer</source>
        <translation>%1, jetzt auf diesem Computer</translation>
    </message>
    <message>
        <source>Computing the summary...</source>
        <translation>Zusammenfassung wird berechnet...</translation>
    </message>
    <message>
        <source>No run open.</source>
        <translation>Kein Lauf geöffnet.</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>n/a (one step)</source>
        <translation>k. A. (ein Schritt)</translation>
    </message>
    <message>
        <source>step %1, %2</source>
        <translation>Schritt %1, %2</translation>
    </message>
    <message>
        <source>%1 % of %2 TFLOP/s</source>
        <translation>%1 % von %2 TFLOP/s</translation>
    </message>
    <message>
        <source>%1: %2 events, %3 allocations</source>
        <translation>%1: %2 Ereignisse, %3 Allokationen</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>Durchsatz</translation>
    </message>
    <message>
        <source>Peak allocated:</source>
        <translation>Spitze alloziert:</translation>
    </message>
    <message>
        <source>Peak in step 1:</source>
        <translation>Spitze in Schritt 1:</translation>
    </message>
    <message>
        <source>Peak in later steps:</source>
        <translation>Spitze in späteren Schritten:</translation>
    </message>
    <message>
        <source>Average allocated:</source>
        <translation>Durchschnittlich alloziert:</translation>
    </message>
    <message>
        <source>Peak / average:</source>
        <translation>Spitze / Durchschnitt:</translation>
    </message>
    <message>
        <source>Forward peak:</source>
        <translation>Spitze Vorwärts:</translation>
    </message>
    <message>
        <source>Backward peak:</source>
        <translation>Spitze Rückwärts:</translation>
    </message>
    <message>
        <source>Optimizer peak:</source>
        <translation>Spitze Optimierer:</translation>
    </message>
    <message>
        <source>Peak reached in:</source>
        <translation>Spitze erreicht in:</translation>
    </message>
    <message>
        <source>Samples/s:</source>
        <translation>Samples/s:</translation>
    </message>
    <message>
        <source>Tokens/s:</source>
        <translation>Tokens/s:</translation>
    </message>
    <message>
        <source>Model TFLOP/s:</source>
        <translation>Modell-TFLOP/s:</translation>
    </message>
    <message>
        <source>MFU:</source>
        <translation>MFU:</translation>
    </message>
    <message>
        <source>%1 free of %2 reserved</source>
        <translation>%1 frei von %2 reserviert</translation>
    </message>
    <message>
        <source>, largest free block %1</source>
        <translation>, größter freier Block %1</translation>
    </message>
    <message>
        <source>%1 bytes reserved minus %2 bytes allocated</source>
        <translation>%1 Bytes reserviert minus %2 Bytes alloziert</translation>
    </message>
    <message>
        <source>no out-of-memory event</source>
        <translation>Speicher nie erschöpft</translation>
    </message>
    <message>
        <source>no caching allocator (CPU)</source>
        <translation>kein Caching-Allocator (CPU)</translation>
    </message>
    <message>
        <source>The CPU allocator reserves nothing beyond what it hands out.</source>
        <translation>Der CPU-Allocator reserviert nichts über das hinaus, was er ausgibt.</translation>
    </message>
    <message>
        <source>Reserved peak:</source>
        <translation>Spitze reserviert:</translation>
    </message>
    <message>
        <source>Fragmentation at the peak:</source>
        <translation>Fragmentierung an der Spitze:</translation>
    </message>
    <message>
        <source>Fragmentation at the OOM:</source>
        <translation>Fragmentierung bei erschöpftem Speicher:</translation>
    </message>
    <message>
        <source>Cannot summarize this run: %1</source>
        <translation>Dieser Lauf lässt sich nicht zusammenfassen: %1</translation>
    </message>
    <message>
        <source>Filtered range</source>
        <translation>Gefilterter Bereich</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>Allocations alive in it</source>
        <translation>Darin lebendige Allokationen</translation>
    </message>
    <message>
        <source>Allocations made in it</source>
        <translation>Darin angelegte Allokationen</translation>
    </message>
    <message>
        <source>Their bytes</source>
        <translation>Ihre Bytes</translation>
    </message>
    <message>
        <source>Highest live total in it</source>
        <translation>Höchste lebendige Summe darin</translation>
    </message>
    <message>
        <source>Their bytes by category</source>
        <translation>Ihre Bytes nach Kategorie</translation>
    </message>
    <message>
        <source>%1–%2 (%3 s – %4 s)</source>
        <translation>%1–%2 (%3 s – %4 s)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>%1 at event %2</source>
        <translation>%1 bei Ereignis %2</translation>
    </message>
    <message>
        <source>%1 (inferred)</source>
        <translation>%1 (abgeleitet)</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>nicht aufgezeichnet</translation>
    </message>
    <message>
        <source>This GPU run has neither segments nor reserved totals (the snapshot did not include them).</source>
        <translation>Dieser GPU-Lauf hat weder Segmente noch reservierte Summen (der Snapshot enthielt sie nicht).</translation>
    </message>
    <message>
        <source>At the peak, the rule that put the most bytes in each category.</source>
        <translation>An der Spitze die Regel, die jeder Kategorie die meisten Bytes zugeordnet hat.</translation>
    </message>
    <message>
        <source>%1 allocated before recording started. These are usually the model&apos;s parameters, and after warm-up steps also gradients and optimizer state. To see them, start recording before building the model.</source>
        <translation>%1 vor Beginn der Aufzeichnung angelegt. Das sind meist die Parameter des Modells, nach Aufwärmschritten auch Gradienten und Optimiererzustand. Um sie zu sehen, die Aufzeichnung vor dem Aufbau des Modells starten.</translation>
    </message>
    <message>
        <source>Categories at the peak:</source>
        <translation>Kategorien an der Spitze:</translation>
    </message>
    <message>
        <source>Before recording:</source>
        <translation>Vor der Aufzeichnung:</translation>
    </message>
    <message>
        <source>%1 allocated before recording started; of it the model&apos;s parameters, %2 (inferred: one block per gradient of step %3 by size)</source>
        <translation>%1 vor der Aufzeichnung angelegt; davon die Parameter des Modells, %2 (abgeleitet: ein Block je Gradient aus Schritt %3 nach Größe)</translation>
    </message>
    <message>
        <source>%1, and optimizer state beside them, %2</source>
        <translation>%1, und daneben der Zustand des Optimierers, %2</translation>
    </message>
    <message>
        <source>%1.</source>
        <translation>%1.</translation>
    </message>
</context>
<context>
    <name>memscope::SweepPage</name>
    <message>
        <source>linear</source>
        <translation>linear</translation>
    </message>
    <message>
        <source>quadratic</source>
        <translation>quadratisch</translation>
    </message>
    <message>
        <source>sub-linear</source>
        <translation>sublinear</translation>
    </message>
    <message>
        <source>between linear and quadratic</source>
        <translation>zwischen linear und quadratisch</translation>
    </message>
    <message>
        <source>steeper than quadratic</source>
        <translation>steiler als quadratisch</translation>
    </message>
    <message>
        <source>not enough points</source>
        <translation>zu wenige Punkte</translation>
    </message>
    <message>
        <source>Open sweep directory</source>
        <translation>Sweep-Verzeichnis öffnen</translation>
    </message>
    <message>
        <source>Directory for sweep results</source>
        <translation>Verzeichnis für Sweep-Ergebnisse</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation>Tabelle exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Batch sizes</source>
        <translation>Batchgrößen</translation>
    </message>
    <message>
        <source>Sequence lengths</source>
        <translation>Sequenzlängen</translation>
    </message>
    <message>
        <source>Presets</source>
        <translation>Presets</translation>
    </message>
    <message>
        <source>Precisions</source>
        <translation>Genauigkeiten</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <source>Checkpointing</source>
        <translation>Checkpointing</translation>
    </message>
    <message>
        <source>Profile types</source>
        <translation>Profiltypen</translation>
    </message>
    <message>
        <source>Capacity: &apos;%1&apos; is not a size (try 512MiB or 2GiB)</source>
        <translation>Kapazität: „%1“ ist keine Größe (z. B. 512MiB oder 2GiB)</translation>
    </message>
    <message>
        <source>A sweep is already running.</source>
        <translation>Es läuft bereits ein Sweep.</translation>
    </message>
    <message numerus="yes">
        <source>Starting %n point(s)...</source>
        <translation>
            <numerusform>Starte %n Punkt...</numerusform>
            <numerusform>Starte %n Punkte...</numerusform>
        </translation>
    </message>
    <message>
        <source>Point %1 of %2: %3, step %4 of %5</source>
        <translation>Punkt %1 von %2: %3, Schritt %4 von %5</translation>
    </message>
    <message numerus="yes">
        <source>Cancelled: kept %n finished point(s) in %1</source>
        <translation>
            <numerusform>Abgebrochen: %n fertiger Punkt in %1 behalten</numerusform>
            <numerusform>Abgebrochen: %n fertige Punkte in %1 behalten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Done: %n point(s) in %1</source>
        <translation>
            <numerusform>Fertig: %n Punkt in %1</numerusform>
            <numerusform>Fertig: %n Punkte in %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelling: the running point stops at its next module...</source>
        <translation>Wird abgebrochen: der laufende Punkt hält am nächsten Modul an...</translation>
    </message>
    <message numerus="yes">
        <source>Opened %n point(s) from %1</source>
        <translation>
            <numerusform>%n Punkt aus %1 geöffnet</numerusform>
            <numerusform>%n Punkte aus %1 geöffnet</numerusform>
        </translation>
    </message>
    <message>
        <source>Memory (MiB)</source>
        <translation>Speicher (MiB)</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>Spitze</translation>
    </message>
    <message>
        <source>Average</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <source>Out of memory</source>
        <translation>Speicher erschöpft</translation>
    </message>
    <message>
        <source>Memory against batch size</source>
        <translation>Speicher über der Batchgröße</translation>
    </message>
    <message>
        <source>Memory against sequence length</source>
        <translation>Speicher über der Sequenzlänge</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Batchgröße</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>Sequenzlänge</translation>
    </message>
    <message>
        <source>Samples/s</source>
        <translation>Samples/s</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <source>Peak per token</source>
        <translation>Spitze pro Token</translation>
    </message>
    <message>
        <source>Input-dependent per token</source>
        <translation>Eingabeabhängig pro Token</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>Durchsatz</translation>
    </message>
    <message>
        <source>Samples per second</source>
        <translation>Samples pro Sekunde</translation>
    </message>
    <message>
        <source>Tokens per second</source>
        <translation>Tokens pro Sekunde</translation>
    </message>
    <message>
        <source>Memory per token</source>
        <translation>Speicher pro Token</translation>
    </message>
    <message>
        <source>KiB per token</source>
        <translation>KiB pro Token</translation>
    </message>
    <message>
        <source>against sequence length</source>
        <translation>über der Sequenzlänge</translation>
    </message>
    <message>
        <source>against batch size</source>
        <translation>über der Batchgröße</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, %2: peak ∝ %3; input-dependent memory ∝ %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;, %2: Spitze ∝ %3; eingabeabhängiger Speicher ∝ %4</translation>
    </message>
    <message>
        <source>; steepest component: %1 ∝ %2</source>
        <translation>; am steilsten wächst: %1 ∝ %2</translation>
    </message>
    <message>
        <source>Run or open a sweep to see how memory scales.</source>
        <translation>Starten oder öffnen Sie einen Sweep, um zu sehen, wie der Speicher skaliert.</translation>
    </message>
    <message>
        <source>The sweep has no two points that differ only in batch size or sequence length: no exponent to fit.</source>
        <translation>Der Sweep hat keine zwei Punkte, die sich nur in Batchgröße oder Sequenzlänge unterscheiden: kein Exponent anzupassen.</translation>
    </message>
    <message numerus="yes">
        <source>%n point(s) ran out of memory (marked in the charts, left out of the fits).</source>
        <translation>
            <numerusform>%n Punkt hatte zu wenig Speicher (in den Diagrammen markiert, nicht in den Anpassungen).</numerusform>
            <numerusform>%n Punkte hatten zu wenig Speicher (in den Diagrammen markiert, nicht in den Anpassungen).</numerusform>
        </translation>
    </message>
    <message>
        <source>Sweep points</source>
        <translation>Sweep-Punkte</translation>
    </message>
    <message>
        <source>Workshop exercise 2, step 1: memory by batch size</source>
        <translation>Workshop-Übung 2, Schritt 1: Speicher nach Batchgröße</translation>
    </message>
    <message>
        <source>Workshop exercise 2, step 3: sequence length scaling</source>
        <translation>Workshop-Übung 2, Schritt 3: Skalierung mit der Sequenzlänge</translation>
    </message>
    <message>
        <source>Performance study: problem sizes</source>
        <translation>Leistungsstudie: Problemgrößen</translation>
    </message>
    <message>
        <source>CS336 (b): peak per context length, forward and training step</source>
        <translation>CS336 (b): Spitze pro Kontextlänge, Forward und Trainingsschritt</translation>
    </message>
    <message>
        <source>CS336 (c): mixed precision</source>
        <translation>CS336 (c): gemischte Genauigkeit</translation>
    </message>
    <message>
        <source>Base preset:</source>
        <translation>Basis-Preset:</translation>
    </message>
    <message>
        <source>Batch sizes:</source>
        <translation>Batchgrößen:</translation>
    </message>
    <message>
        <source>Sequence lengths:</source>
        <translation>Sequenzlängen:</translation>
    </message>
    <message>
        <source>Presets:</source>
        <translation>Presets:</translation>
    </message>
    <message>
        <source>Precisions:</source>
        <translation>Genauigkeiten:</translation>
    </message>
    <message>
        <source>Attention:</source>
        <translation>Attention:</translation>
    </message>
    <message>
        <source>Checkpointing:</source>
        <translation>Checkpointing:</translation>
    </message>
    <message>
        <source>Profile types:</source>
        <translation>Profiltypen:</translation>
    </message>
    <message>
        <source>Steps per point:</source>
        <translation>Schritte pro Punkt:</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>Modus:</translation>
    </message>
    <message>
        <source>Capacity:</source>
        <translation>Kapazität:</translation>
    </message>
    <message>
        <source>Output directory:</source>
        <translation>Ausgabeverzeichnis:</translation>
    </message>
    <message>
        <source>Comma-separated, e.g. 4,8,16 (empty: the preset&apos;s)</source>
        <translation>Durch Kommas getrennt, z. B. 4,8,16 (leer: die des Presets)</translation>
    </message>
    <message>
        <source>Comma-separated, e.g. 64,128,256,512 (empty: the preset&apos;s)</source>
        <translation>Durch Kommas getrennt, z. B. 64,128,256,512 (leer: die des Presets)</translation>
    </message>
    <message>
        <source>Comma-separated presets, each with its own model, batch and sequence length (empty: the base preset)</source>
        <translation>Durch Kommas getrennte Presets, jedes mit eigenem Modell, eigener Batchgröße und Sequenzlänge (leer: das Basis-Preset)</translation>
    </message>
    <message>
        <source>fp32, bf16 (fp16 needs a GPU)</source>
        <translation>fp32, bf16 (fp16 braucht eine GPU)</translation>
    </message>
    <message>
        <source>eager, fused, sdpa, memory-efficient</source>
        <translation>eager, fused, sdpa, memory-efficient</translation>
    </message>
    <message>
        <source>off, on</source>
        <translation>off, on</translation>
    </message>
    <message>
        <source>training, forward</source>
        <translation>training, forward</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Emulated device capacity (e.g. 1GiB): points that need more run out of memory and are marked</source>
        <translation>Nachgebildete Gerätekapazität (z. B. 1GiB): Punkte, die mehr brauchen, laufen in einen Speicherfehler und werden markiert</translation>
    </message>
    <message>
        <source>One dimension at a time</source>
        <translation>Eine Dimension nach der anderen</translation>
    </message>
    <message>
        <source>Every combination</source>
        <translation>Jede Kombination</translation>
    </message>
    <message>
        <source>One dimension at a time: batch sizes at the preset&apos;s sequence length and sequence lengths at its batch size</source>
        <translation>Eine Dimension nach der anderen: Batchgrößen bei der Sequenzlänge des Presets und Sequenzlängen bei seiner Batchgröße</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>Durchsuchen...</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>Sweep starten</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Open sweep...</source>
        <translation>Sweep öffnen...</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>Diagramme</translation>
    </message>
    <message>
        <source>Tables</source>
        <translation>Tabellen</translation>
    </message>
    <message>
        <source>Log-log axes</source>
        <translation>Doppelt logarithmische Achsen</translation>
    </message>
    <message>
        <source>Throughput and per-token charts against:</source>
        <translation>Durchsatz- und Pro-Token-Diagramme über:</translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation>Als CSV exportieren...</translation>
    </message>
    <message>
        <source>Define a sweep and run it, or open a finished one.</source>
        <translation>Definieren und starten Sie einen Sweep oder öffnen Sie einen fertigen.</translation>
    </message>
</context>
<context>
    <name>memscope::TimelineMinimap</name>
    <message>
        <source>Overview of the whole run: drag the brush to pan, drag its edges to zoom</source>
        <translation>Übersicht über den ganzen Lauf: den Ausschnitt ziehen verschiebt, seine Ränder ziehen zoomt</translation>
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
    <message>
        <source>Colour by</source>
        <translation>Färben nach</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>Allocation</source>
        <translation>Allokation</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>Modul</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>How the allocations are coloured</source>
        <translation>Wie die Allokationen eingefärbt werden</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>Darstellung</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>Allokationen</translation>
    </message>
    <message>
        <source>By category</source>
        <translation>Nach Kategorie</translation>
    </message>
    <message>
        <source>Allocations one by one, or memory stacked by category over time</source>
        <translation>Allokationen einzeln oder Speicher nach Kategorie gestapelt über die Zeit</translation>
    </message>
    <message>
        <source>x axis</source>
        <translation>x-Achse</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>Wanduhrzeit</translation>
    </message>
    <message>
        <source>Space the timeline by allocation and free events or by wall time</source>
        <translation>Zeitleiste nach Allokations- und Freigabeereignissen oder nach Wanduhrzeit einteilen</translation>
    </message>
    <message>
        <source>Reset view</source>
        <translation>Ansicht zurücksetzen</translation>
    </message>
    <message>
        <source>Show the whole run (double-click the timeline does the same)</source>
        <translation>Den ganzen Lauf zeigen (ein Doppelklick in die Zeitleiste tut dasselbe)</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>The process (rank) of the multi-process run shown in every view</source>
        <translation>Der Prozess (Rang) des Mehrprozesslaufs, den jede Ansicht zeigt</translation>
    </message>
    <message>
        <source>Annotations</source>
        <translation>Annotationen</translation>
    </message>
    <message>
        <source>Show steps, phases, checkpoint recomputations and imported annotations as labelled bands</source>
        <translation>Schritte, Phasen, Checkpoint-Neuberechnungen und importierte Annotationen als beschriftete Bänder zeigen</translation>
    </message>
    <message>
        <source>All ranks</source>
        <translation>Alle Ränge</translation>
    </message>
    <message>
        <source>Every rank at once: one lane per rank, steps aligned, one memory scale; click a lane to pick its rank</source>
        <translation>Alle Ränge auf einmal: eine Spur pro Rang, Schritte ausgerichtet, eine Speicherskala; Klick auf eine Spur wählt ihren Rang</translation>
    </message>
</context>
<context>
    <name>memscope::TimelineView</name>
    <message>
        <source>Detail: %1 of %2 allocations</source>
        <translation>Detail: %1 von %2 Allokationen</translation>
    </message>
    <message>
        <source>No run open</source>
        <translation>Kein Lauf geöffnet</translation>
    </message>
    <message>
        <source>Rose and fell within a pixel column</source>
        <translation>Stieg und fiel innerhalb einer Pixelspalte</translation>
    </message>
</context>
<context>
    <name>memscope::TorchPartLoader</name>
    <message>
        <source>This needs LibTorch, and its part %1 is neither beside memscope nor in ../lib/memscope (reinstall Memscope)</source>
        <translation>Dies braucht LibTorch, und dessen Teil %1 liegt weder neben memscope noch in ../lib/memscope (Memscope neu installieren)</translation>
    </message>
    <message>
        <source>Cannot load %1: %2</source>
        <translation>%1 kann nicht geladen werden: %2</translation>
    </message>
    <message>
        <source>%1 has no %2 (a library of another Memscope build?)</source>
        <translation>%1 hat kein %2 (eine Bibliothek eines anderen Memscope-Builds?)</translation>
    </message>
</context>
<context>
    <name>memscope::ViewExporter</name>
    <message>
        <source>Cannot write %1.</source>
        <translation>%1 kann nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>There is no view to export.</source>
        <translation>Es gibt keine Ansicht zum Exportieren.</translation>
    </message>
    <message>
        <source>Exported from %1 %2</source>
        <translation>Exportiert aus %1 %2</translation>
    </message>
</context>
</TS>
