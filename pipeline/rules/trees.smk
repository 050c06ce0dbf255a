# Induced trees (SA-NMT Table 3): a run's head scores phi on the pair's gold treebank split
# (teacher-forced analysis dump), sub-word pieces collapsed by summing, decoded with Chu-Liu-Edmonds
# (root on the diagonal, exactly one child of the root) and scored as DA/UA without punctuation
# against the gold trees; the left-/right-branching and undirected-chain baselines beside them, and
# chance: random trees through the same decoders (Chu-Liu-Edmonds or Eisner on random scores, 20
# draws).
# Tables read them as stat columns (trees.<split>.json, keys da / ua) and measured rows.

include: "helpers/trees.smk"


rule induced_trees:
    """A system's `induced_trees` says which analysis tensor holds its head scores, how its rows
    read and which decoder makes the trees (LGP-NMT: soft heads, rows = dependents with ROOT on
    the diagonal, Eisner)."""
    input:
        dump=lambda w: f"{RESULTS}/analysis/{w.system}/{w.split}.{induced_trees_spec(w.system)['tensor']}.h5",
        gold=lambda w: gold_treebank(SYSTEMS[w.system]["pair"], w.split),
    output:
        conllu=f"{RESULTS}/systems/{{system}}/trees.{{split}}.conllu",
        scores=f"{RESULTS}/systems/{{system}}/trees.{{split}}.json",
    wildcard_constraints:
        split=_alternatives(GOLD_SPLITS) if GOLD_SPLITS else "(?!)",
    params:
        bin=BIN,
        tensor=lambda w: induced_trees_spec(w.system)["tensor"],
        rows=lambda w: induced_trees_spec(w.system)["rows"],
        decoder=lambda w: induced_trees_spec(w.system)["decoder"],
    log:
        f"{RESULTS}/systems/{{system}}/trees.{{split}}.log",
    benchmark:
        f"{RESULTS}/systems/{{system}}/trees.{{split}}.benchmark.tsv",
    shell:
        "({params.bin}/synmt-trees induce --heads {input.dump} --tensor {params.tensor} --rows {params.rows}"
        " --decoder {params.decoder} --gold {input.gold} -o {output.conllu}"
        " && {params.bin}/synmt-trees uas --gold {input.gold} --pred {output.conllu} -f json > {output.scores}.tmp"
        " && mv {output.scores}.tmp {output.scores}) 2> {log}"


rule tree_baselines:
    input:
        gold=lambda w: gold_treebank(w.pair, w.split),
    output:
        **{kind: f"{RESULTS}/trees/{{pair}}/{{split}}.{kind}.json" for kind in ("left_branching", "right_branching", "undirected_chain", "random_trees", "random_projective_trees")},
    wildcard_constraints:
        split=_alternatives(GOLD_SPLITS) if GOLD_SPLITS else "(?!)",
    params:
        bin=BIN,
        py=PYTHON,
        prefix=lambda w: f"{RESULTS}/trees/{w.pair}/{w.split}",
    log:
        f"{RESULTS}/trees/{{pair}}/{{split}}.baselines.log",
    benchmark:
        f"{RESULTS}/trees/{{pair}}/{{split}}.baselines.benchmark.tsv",
    shell:
        "({params.bin}/synmt-trees baselines --gold {input.gold} -f json > {params.prefix}.baselines.json"
        " && {params.py} pipeline/scripts/split_json.py {params.prefix}.baselines.json {params.prefix}) 2> {log}"


rule gate_pos:
    """SA-NMT §6: per sentence of the gold treebank split, the target word holding the highest
    syntax-gate norm z_t = ||sigmoid(W_g h_t)||, teacher-forced on the parallel treebank's target
    side; counted by its gold UPOS (gate_pos.<split>.json: counts and percent per UPOS), and under
    Eq. 17's other reading, z_t from h_{t-1}: each piece with the norm of the step before it (key
    previous_step)."""
    input:
        dump=f"{RESULTS}/analysis/{{system}}/{{split}}.gate_norm.h5",
        target=lambda w: subword_text(SYSTEMS[w.system]["pair"], w.split, "tgt"),
        gold=lambda w: gold_treebank(SYSTEMS[w.system]["pair"], w.split, "tgt"),
    output:
        f"{RESULTS}/systems/{{system}}/gate_pos.{{split}}.json",
    wildcard_constraints:
        split=_alternatives(GOLD_SPLITS) if GOLD_SPLITS else "(?!)",
    params:
        bin=BIN,
        subwords=lambda w: PAIR[SYSTEMS[w.system]["pair"]].subwords,
    log:
        f"{RESULTS}/systems/{{system}}/gate_pos.{{split}}.log",
    benchmark:
        f"{RESULTS}/systems/{{system}}/gate_pos.{{split}}.benchmark.tsv",
    shell:
        "({params.bin}/synmt-trees gate-pos --gates {input.dump} --tensor gate_norm --target {input.target}"
        " --subwords {params.subwords} --conllu {input.gold} --previous-step -f json > {output}.tmp && mv {output}.tmp {output}) 2> {log}"


rule gate_chance:
    """SA-NMT §6's chance rates, from the gold treebank split's target side alone: the share of
    each UPOS among the sub-word pieces (a peak on a random piece), the words (a random word) and
    the sentences' first words (a peak always on the first word). Each file in gate_pos's layout,
    for a table's measured rows (trees/<pair>/<split>.gate_chance.<kind>.json)."""
    input:
        target=lambda w: subword_text(w.pair, w.split, "tgt"),
        gold=lambda w: gold_treebank(w.pair, w.split, "tgt"),
    output:
        **{kind: f"{RESULTS}/trees/{{pair}}/{{split}}.gate_chance.{kind}.json" for kind in ("random_piece", "random_word", "first_word")},
    wildcard_constraints:
        split=_alternatives(GOLD_SPLITS) if GOLD_SPLITS else "(?!)",
    params:
        bin=BIN,
        py=PYTHON,
        subwords=lambda w: PAIR[w.pair].subwords,
        prefix=lambda w: f"{RESULTS}/trees/{w.pair}/{w.split}.gate_chance",
    log:
        f"{RESULTS}/trees/{{pair}}/{{split}}.gate_chance.log",
    benchmark:
        f"{RESULTS}/trees/{{pair}}/{{split}}.gate_chance.benchmark.tsv",
    shell:
        "({params.bin}/synmt-trees gate-chance --target {input.target} --subwords {params.subwords} --conllu {input.gold}"
        " -f json > {params.prefix}.json && {params.py} pipeline/scripts/split_json.py {params.prefix}.json {params.prefix}) 2> {log}"


rule graph_stats:
    """Latent graphs (Bastings et al. 2018, Tables 3 and 4): over a run's soft latent graphs on a
    split (teacher-forced analysis dump, tensor `graph`, one head distribution per token), the mean
    distance to the most likely head (with its standard deviation and variance) and the mean
    per-token head entropy in nats beside that of a uniform graph on the same sentences
    (graph_stats.<split>.json)."""
    input:
        dump=f"{RESULTS}/analysis/{{system}}/{{split}}.graph.h5",
    output:
        f"{RESULTS}/systems/{{system}}/graph_stats.{{split}}.json",
    params:
        bin=BIN,
    log:
        f"{RESULTS}/systems/{{system}}/graph_stats.{{split}}.log",
    benchmark:
        f"{RESULTS}/systems/{{system}}/graph_stats.{{split}}.benchmark.tsv",
    shell:
        "({params.bin}/synmt-trees stats --scores {input.dump} --tensor graph --probabilities --no-root -f json"
        " > {output}.tmp && mv {output}.tmp {output}) 2> {log}"


rule group_trees:
    """A seed group's induced trees: its runs' trees concatenated in seed order, as
    group_hypotheses does for translations (the tree significance tests read them)."""
    input:
        lambda w: [f"{RESULTS}/systems/{r}/trees.{w.split}.conllu" for r in group_runs(w)],
    output:
        f"{RESULTS}/groups/{{group}}/{{pair}}/trees.{{split}}.conllu",
    wildcard_constraints:
        group=_group_names(),
        split=_alternatives(GOLD_SPLITS) if GOLD_SPLITS else "(?!)",
    log:
        f"{WORK}/logs/groups/{{group}}.{{pair}}.trees.{{split}}.log",
    benchmark:
        f"{WORK}/logs/groups/{{group}}.{{pair}}.trees.{{split}}.benchmark.tsv",
    shell:
        "cat {input} > {output} 2> {log}"


rule gold_treebank_head:
    """The first `sentences` sentences of a gold treebank side (gold_trees.sentences): trees
    scored on a subset, for a quick look or a smoke test; fewer sentences than asked is an error."""
    input:
        lambda w: gold_treebank_file(w.pair, w.split, w.side),
    output:
        f"{WORK}/{{pair}}/gold/{{split}}.{{side}}.conllu",
    wildcard_constraints:
        split=_alternatives(GOLD_SPLITS) if GOLD_SPLITS else "(?!)",
        side="src|tgt",
    params:
        py=PYTHON,
        n=lambda w: gold_spec(w.pair, w.split)["sentences"],
    log:
        f"{WORK}/logs/gold/{{pair}}.{{split}}.{{side}}.log",
    benchmark:
        f"{WORK}/logs/gold/{{pair}}.{{split}}.{{side}}.benchmark.tsv",
    shell:
        "{params.py} pipeline/scripts/conllu_head.py {input} {output} {params.n} 2> {log}"


rule group_gold_trees:
    """The gold treebank repeated once per run of a group, matching group_trees."""
    input:
        lambda w: gold_treebank(w.pair, w.split),
    output:
        f"{RESULTS}/groups/references/{{pair}}/{{split}}.x{{n}}.conllu",
    wildcard_constraints:
        split=_alternatives(GOLD_SPLITS) if GOLD_SPLITS else "(?!)",
        n="[0-9]+",
    log:
        f"{WORK}/logs/groups/references.{{pair}}.{{split}}.x{{n}}.conllu.log",
    benchmark:
        f"{WORK}/logs/groups/references.{{pair}}.{{split}}.x{{n}}.conllu.benchmark.tsv",
    shell:
        "(for i in $(seq 1 {wildcards.n}); do gzip -dcf {input}; done > {output}) 2> {log}"


rule tree_significance:
    """Paired bootstrap over the gold sentences of one group's induced trees against a baseline
    group's (DA or UA, punctuation excluded as in trees.<split>.json); the samples and seed of the
    config's `bootstrap` block, as the translation metrics' significance rule."""
    input:
        unpack(_tree_significance_inputs),
    output:
        f"{RESULTS}/significance/{{pair}}/{{split}}/{{metric}}/{{baseline}}--{{system}}.json",
    params:
        bin=BIN,
        samples=config["bootstrap"]["samples"],
        seed=config["bootstrap"]["seed"],
        runs=lambda w: len(experiment.runs_of(SYSTEMS, w.system, w.pair)),  # resampled by sentence, as rule significance
    threads: config["threads"]
    wildcard_constraints:
        metric="da|ua",
        split=_alternatives(GOLD_SPLITS) if GOLD_SPLITS else "(?!)",
        baseline=_group_names(),
        system=_group_names(),
    log:
        f"{WORK}/logs/significance/{{pair}}.{{split}}.{{metric}}.{{baseline}}--{{system}}.log",
    benchmark:
        f"{WORK}/benchmarks/significance/{{pair}}.{{split}}.{{metric}}.{{baseline}}--{{system}}.tsv"
    shell:
        "{params.bin}/synmt-trees paired-bs --gold {input.gold} --metric {wildcards.metric} --samples {params.samples}"
        " --seed {params.seed} --runs {params.runs} --threads {threads} --format json --baseline {input.baseline} {input.system}"
        " > {output} 2> {log}"
