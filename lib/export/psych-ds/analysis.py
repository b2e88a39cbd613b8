#!/usr/bin/env python3
"""Recomputes the misi-baseline results page from this Psych-DS dataset and fits the condition model.

    python3 analysis/analysis.py [DATASET_DIR]     (needs pandas, numpy, statsmodels; Debian: python3-pandas python3-statsmodels)

DATASET_DIR defaults to the folder above this script. Output: one line per number, `kind key=value ...`, values unrounded
(17 significant digits, fractions in [0, 1]); docs/analysis-package.md in the app describes every line.

- accuracy: per result column and group (all / condition=X / cohort=X), metric exact or partial: the pooled mean and the
  95 % interval the page reports: a participant bootstrap (mulberry32 seeded with FNV-1a of the page's seed string),
  or the clustered Wilson interval where the bootstrap collapses or is unreliable (lib/results/interval-rule.ts).
- average: the paper's Avg (8 columns) and the all-task average (10 columns), NA when a column has no answers.
- effect: accuracy(interactive) - accuracy(static) (exact score), overall and per result column, with the page's Welch t
  interval on participants (low, high, se, df; lib/stats/condition-effect-interval.ts) and, for checking, the crossed
  participant x item bootstrap (bootstrap_low, bootstrap_high; Park-Miller RNG) as lib/stats/crossed-bootstrap.ts computes it.
- Exclusions: every estimate leaves out the answers of participants the study's exclusion policy excludes (trials
  column excluded = 1), as the page does; effect and model lines carry set=kept, and when anyone is excluded the same
  lines follow with set=all (everyone kept in).
- integrity*: the integrity section, exact accuracy for all participants and after exclusions (the participants file's
  excluded_by, computed with the page's policy) and the participants each rule excludes.
- usage3d: the 3D-usage section per task, from the usage3d file (rounded metrics: equal at the page's precision).
- model_note kind=separation / large-se: condition x task cells all-correct or all-wrong, or a posterior SD above 10.
- model: the condition model. statsmodels has no frequentist crossed-random-effects GLMM, so this script fits
  BinomialBayesMixedGLM (variational Bayes, fit_vb) with participant and item variance components: posterior means
  and SDs, not lme4's maximum-likelihood estimates (analysis.R prints those).
"""
import math
import os
import sys
import time
import warnings
from statistics import NormalDist

try:
    import numpy as np
    import pandas as pd
except ImportError as missing:
    sys.exit(f"analysis.py needs numpy, pandas and statsmodels ({missing}); Debian: apt-get install python3-pandas python3-statsmodels, "
             "then run it with that Python (/usr/bin/python3)")

RESULT_COLUMNS = ["translation", "rotation", "zooming", "residue_ligand_pos", "residue_ligand_neg",
                  "translation_rotation", "rotation_rotation", "docking", "interaction_location", "pocket_ligand"]
PAPER_AVERAGE_COLUMNS = [c for c in RESULT_COLUMNS if c not in ("translation_rotation", "rotation_rotation")]
TASK_ORDER = ["translation", "rotation", "zooming", "residue_ligand", "translation_rotation", "rotation_rotation", "docking", "interaction_location", "pocket_ligand"]
ROTATED_THRESHOLD_DEG = 15
LARGE_SE = 10
MIN_BOOTSTRAP_PARTICIPANTS = 10
MIN_REPORTED_WIDTH = 0.001
M32 = np.uint64(0xFFFFFFFF)


def fmt(x):
    """Shortest text that reads back as the same double; NA when there is no value."""
    if x is None or not math.isfinite(float(x)):
        return "NA"
    return repr(float(x))


def enc(value):
    """Values may hold spaces (a cohort tag): % and space are percent-encoded so each field stays one token."""
    return str(value).replace("%", "%25").replace(" ", "%20")


def out(line_kind, /, **fields):
    print(line_kind + "".join(f" {k}={enc(v)}" for k, v in fields.items()), flush=True)


# ---- the results page's RNG: FNV-1a seed hash and mulberry32 (lib/rng.ts) ----
def hash_seed(seed):
    h = 0x811C9DC5
    data = str(seed).encode("utf-16-le")
    for i in range(0, len(data), 2):
        h ^= data[i] | (data[i + 1] << 8)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def mulberry32(seed, n):
    """The first n numbers of createRng(seed).next(): state k is seed + k * 0x6d2b79f5 (mod 2^32)."""
    k = np.arange(1, n + 1, dtype=np.uint64)
    t = (np.uint64(hash_seed(seed)) + k * np.uint64(0x6D2B79F5)) & M32
    t = ((t ^ (t >> np.uint64(15))) * (t | np.uint64(1))) & M32
    t = t ^ ((t + (((t ^ (t >> np.uint64(7))) * (t | np.uint64(61))) & M32)) & M32)
    return ((t ^ (t >> np.uint64(14))) & M32).astype(np.float64) / 4294967296.0


def quantile_sorted(values, p):
    h = (len(values) - 1) * p
    lo = math.floor(h)
    below = values[lo]
    above = values[min(lo + 1, len(values) - 1)]
    w = h - lo
    return below if w == 0 else below * (1 - w) + above * w


def wilson_limits(p, n, confidence):
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = (z / denominator) * math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))
    return (0.0 if p == 0 else max(0.0, centre - half), 1.0 if p == 1 else min(1.0, centre + half))


def estimate_icc(clusters):
    k = len(clusters)
    n = sum(len(c) for c in clusters)
    if k < 2 or n <= k:
        return None
    grand = sum(sum(c) for c in clusters) / n
    ssb = ssw = 0.0
    for c in clusters:
        m = sum(c) / len(c)
        ssb += len(c) * (m - grand) ** 2
        for x in c:
            ssw += (x - m) ** 2
    msb = ssb / (k - 1)
    msw = ssw / (n - k)
    m0 = (n - sum(len(c) ** 2 for c in clusters) / n) / (k - 1)
    den = msb + (m0 - 1) * msw
    raw = 0.0 if den == 0 else (msb - msw) / den
    return min(1.0, max(0.0, raw))


def clustered_wilson(clusters, confidence):
    values = [v for c in clusters for v in c]
    n = len(values)
    estimate = min(1.0, max(0.0, sum(values) / n))
    all_equal = all(v == values[0] for v in values)
    icc = None if all_equal else estimate_icc(clusters)
    rho = 1.0 if icc is None else icc
    de = 1 + (sum(len(c) ** 2 for c in clusters) / n - 1) * rho
    return wilson_limits(estimate, n / de, confidence)


def reported_interval(clusters, seed, replicates, confidence):
    """lib/stats/bootstrap.ts bootstrapClusterMean + lib/results/interval-rule.ts chooseReportedInterval.
    Returns the bootstrap's own limits and the reported interval (low, high, method, reason)."""
    sums = np.array([sum(c) for c in clusters], dtype=np.float64)
    counts = np.array([len(c) for c in clusters], dtype=np.float64)
    g = len(clusters)
    picks = np.floor(mulberry32(seed, replicates * g) * g).astype(np.int64).reshape(replicates, g)
    means = np.sort(sums[picks].sum(axis=1) / counts[picks].sum(axis=1))
    alpha = 1 - confidence
    low, high = float(quantile_sorted(means, alpha / 2)), float(quantile_sorted(means, 1 - alpha / 2))
    values = [v for c in clusters for v in c]
    if all(v == values[0] for v in values):
        reason = "boundary"
    elif g < MIN_BOOTSTRAP_PARTICIPANTS:
        reason = "few-participants"
    elif high - low < MIN_REPORTED_WIDTH:
        reason = "narrow"
    else:
        return (low, high), (low, high, "participant-bootstrap", "none")
    cl, ch = clustered_wilson(clusters, confidence)
    return (low, high), (cl, ch, "clustered-wilson", reason)


def summarize_metric(by_participant, scores, seed, settings, binary):
    """One metric of one column: pooled mean, bootstrap, reported interval, Wilson (0/1 scores) and participant spread."""
    clusters = [list(scores[g.index]) for _, g in by_participant]
    n = sum(len(c) for c in clusters)
    total = sum(sum(c) for c in clusters)
    (b_low, b_high), (low, high, method, reason) = reported_interval(clusters, seed, settings["resultsReplicates"], settings["confidence"])
    means = sorted(sum(c) / len(c) for c in clusters)
    fields = {"value": fmt(total / n), "low": fmt(low), "high": fmt(high), "method": method, "reason": reason,
              "bootstrap_low": fmt(b_low), "bootstrap_high": fmt(b_high)}
    if binary:
        w_low, w_high = wilson_limits(total / n, n, settings["confidence"])
        fields.update({"wilson_low": fmt(w_low), "wilson_high": fmt(w_high)})
    fields.update({"spread_min": fmt(means[0]), "spread_median": fmt(quantile_sorted(means, 0.5)), "spread_max": fmt(means[-1])})
    return total / n, fields


def summarize_group(df, prefix, label, settings):
    cells = {m: {} for m in ("exact", "partial", "fair-exact", "fair-partial")}
    for column in RESULT_COLUMNS:
        sub = df[df["result_column"] == column]
        if len(sub) == 0:
            continue
        # Clusters in participant-id order (code-unit order, as the page sorts them).
        by_participant = sorted(sub.groupby("participant_id", sort=False), key=lambda kv: kv[0])
        exact = sub["exact"].astype(float)
        partial = sub["partial"].astype(float)
        # The fair score where the answer has one, else the paper score (lib/results/summarize.ts fairExactOf).
        fair_exact = pd.Series(np.where(sub["fair_exact"] != "", pd.to_numeric(sub["fair_exact"], errors="coerce"), exact), index=sub.index)
        fair_partial = pd.Series(np.where(sub["fair_partial"] != "", pd.to_numeric(sub["fair_partial"], errors="coerce"), partial), index=sub.index)
        # Without any fair score in the column the page reuses the paper numbers (and their intervals).
        has_fair = bool(((sub["fair_exact"] != "") | (sub["fair_partial"] != "")).any())
        results = {}
        for metric, scores, binary in (("exact", exact, True), ("partial", partial, False), ("fair-exact", fair_exact, True), ("fair-partial", fair_partial, False)):
            if metric.startswith("fair-") and not has_fair:
                results[metric] = results[metric[5:]]
            else:
                results[metric] = summarize_metric(by_participant, scores, f"{prefix}|{column}|{metric}", settings, binary)
            value, fields = results[metric]
            cells[metric][column] = value
            out("accuracy", group=label, column=column, metric=metric, n=len(sub), participants=len(by_participant), items=sub["item_id"].nunique(), **fields)
        f1 = sub["fair_f1"]
        out("f1", group=label, column=column, value=fmt(pd.to_numeric(f1).mean()) if (f1 != "").all() else "NA")
    for metric in cells:
        for kind, cols in (("paper", PAPER_AVERAGE_COLUMNS), ("all-task", RESULT_COLUMNS)):
            value = sum(cells[metric][c] for c in cols) / len(cols) if all(c in cells[metric] for c in cols) else None
            out("average", group=label, kind=kind, metric=metric, value=fmt(value))


# ---- the condition effect: crossed participant x item bootstrap (condition-bootstrap contract) ----
def park_miller(seed, n):
    s = ((int(seed) - 1) % 2147483646) + 1
    u = np.empty(n, dtype=np.float64)
    for i in range(n):
        s = (16807 * s) % 2147483647
        u[i] = s / 2147483647
    return u


def condition_effect(df, label, settings, set_name):
    seed, B = settings["conditionSeed"], settings["conditionReplicates"]
    n_static = int((df["condition"] == "static").sum())
    n_interactive = int((df["condition"] == "interactive").sum())
    people = sorted(df["participant_id"].unique())
    items = sorted(df["item_id"].unique())
    if n_static == 0 or n_interactive == 0:
        out("effect", set=set_name, subset=label, estimate="NA", low="NA", high="NA", se="NA", df="NA", bootstrap_low="NA", bootstrap_high="NA",
            B=B, seed=seed, skipped=0, participants=len(people), items=len(items), n_static=n_static, n_interactive=n_interactive)
        return
    correct = df["exact"].to_numpy(dtype=np.float64)
    interactive = (df["condition"] == "interactive").to_numpy()
    p_index = pd.Index(people).get_indexer(df["participant_id"])
    i_index = pd.Index(items).get_indexer(df["item_id"])
    estimate = correct[interactive].sum() / interactive.sum() - correct[~interactive].sum() / (~interactive).sum()
    n_p, n_i = len(people), len(items)
    u = park_miller(seed, B * (n_p + n_i)).reshape(B, n_p + n_i)
    values, skipped = [], 0
    for b in range(B):
        c_p = np.bincount(np.floor(u[b, :n_p] * n_p).astype(np.int64), minlength=n_p)
        c_i = np.bincount(np.floor(u[b, n_p:] * n_i).astype(np.int64), minlength=n_i)
        w = (c_p[p_index] * c_i[i_index]).astype(np.float64)
        w_int, w_sta = w[interactive].sum(), w[~interactive].sum()
        if w_int == 0 or w_sta == 0:
            skipped += 1
            continue
        values.append((w[interactive] * correct[interactive]).sum() / w_int - (w[~interactive] * correct[~interactive]).sum() / w_sta)
    values.sort()
    alpha = 1 - settings["confidence"]
    b_low = quantile_sorted(values, alpha / 2) if values else None
    b_high = quantile_sorted(values, 1 - alpha / 2) if values else None
    # Welch t interval on participants: V = G/(G-1) * sum((correct_i - m_i * p)^2) / M^2 per condition, Welch-Satterthwaite df.
    def moments(keep):
        per = pd.DataFrame({"p": df["participant_id"].to_numpy()[keep], "c": correct[keep]}).groupby("p")["c"].agg(["size", "sum"])
        m, k = per["size"].to_numpy(dtype=np.float64), per["sum"].to_numpy(dtype=np.float64)
        g = len(per)
        p = k.sum() / m.sum()
        return g, (g / (g - 1) * ((k - m * p) ** 2).sum() / m.sum() ** 2 if g >= 2 else 0.0)
    g_s, v_s = moments(~interactive)
    g_x, v_x = moments(interactive)
    se = dof = low = high = None
    if g_s >= 2 and g_x >= 2:
        from scipy.stats import t as student_t  # a dependency of statsmodels
        se = math.sqrt(v_s + v_x)
        den = v_s ** 2 / (g_s - 1) + v_x ** 2 / (g_x - 1)
        dof = min(g_s, g_x) - 1 if den == 0 else (v_s + v_x) ** 2 / den
        q = float(student_t.ppf(1 - alpha / 2, dof))
        # SciPy before 1.11 inverts the t CDF only to about 1e-9; two Newton steps on its CDF give R's qt to 1e-15.
        for _ in range(2):
            q -= (float(student_t.cdf(q, dof)) - (1 - alpha / 2)) / float(student_t.pdf(q, dof))
        half = 0.0 if se == 0 else q * se
        low, high = estimate - half, estimate + half
    out("effect", set=set_name, subset=label, estimate=fmt(estimate), low=fmt(low), high=fmt(high), se=fmt(se), df=fmt(dof), bootstrap_low=fmt(b_low),
        bootstrap_high=fmt(b_high), B=B, seed=seed, skipped=skipped, participants=n_p, items=n_i, n_static=n_static, n_interactive=n_interactive)


def fit_condition_model(df, set_name):
    """correct ~ condition * task + (1|participant) + (1|item), variational Bayes (statsmodels has no crossed GLMM MLE)."""
    try:
        from statsmodels.genmod.bayes_mixed_glm import BinomialBayesMixedGLM
    except ImportError as err:  # pragma: no cover - reported, the rest of the output stands
        out("model", set=set_name, engine="statsmodels.BinomialBayesMixedGLM", status="unavailable", reason=str(err))
        return
    data = pd.DataFrame({"correct": df["exact"].astype(float), "condition": pd.Categorical(df["condition"], categories=["static", "interactive"]),
                         "task": df["task_id"].astype(str), "participant": df["participant_id"].astype(str), "item": df["item_id"].astype(str)})
    if data["condition"].nunique() < 2:
        out("model", set=set_name, engine="statsmodels.BinomialBayesMixedGLM", status="skipped", reason="fewer than two conditions")
        return
    formula = "correct ~ C(condition, Treatment('static')) * C(task)" if data["task"].nunique() > 1 else "correct ~ C(condition, Treatment('static'))"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = BinomialBayesMixedGLM.from_formula(formula, {"participant": "0 + C(participant)", "item": "0 + C(item)"}, data)
        result = model.fit_vb()
    out("model", set=set_name, engine="statsmodels.BinomialBayesMixedGLM", method="fit_vb", status="ok", n=len(data), approximate="true")
    # Variational Bayes posterior SDs are not standard errors: on crossed designs they come out 2-4x smaller than
    # lme4's, so no z or p is printed from them; report analysis.R's glmer for inference.
    out("model_note", set=set_name, engine="statsmodels", kind="approximate",
        text="approximate: variational-Bayes posterior means and SDs (not maximum-likelihood standard errors; often several times smaller than lme4's), so no p-values; use analysis.R (lme4::glmer) for tests")
    out("model_formula", set=set_name, engine="statsmodels", formula=formula + " + (1|participant) + (1|item)", coding="treatment", condition_reference="static",
        task_reference=sorted(data["task"].unique())[0])
    large = [name.replace(" ", "") for name, sd in zip(model.exog_names, result.fe_sd) if sd > LARGE_SE]
    if large:
        out("model_note", set=set_name, engine="statsmodels", kind="large-se", terms=";".join(large),
            text=f"posterior SD above {LARGE_SE} on the log-odds scale: the estimate is not usable (separation or too few answers)")
    separation_note(df, "statsmodels", set_name)
    for name, mean, sd in zip(model.exog_names, result.fe_mean, result.fe_sd):
        out("model_term", set=set_name, engine="statsmodels", term=name.replace(" ", ""), estimate=fmt(mean), sd=fmt(sd))
    for name, mean, sd in zip(model.vcp_names, result.vcp_mean, result.vcp_sd):
        out("model_variance", set=set_name, engine="statsmodels", component=name, log_sd_mean=fmt(mean), log_sd_sd=fmt(sd))


def separation_note(df, engine, set_name):
    """Condition x task cells where every answer was correct or every one wrong: the model's log-odds there run to
    +/- infinity (complete separation), so its terms for those cells mean nothing."""
    cells = []
    for condition in sorted(df["condition"].unique()):
        for task in sorted(df["task_id"].unique()):
            x = df.loc[(df["condition"] == condition) & (df["task_id"] == task), "exact"].astype(int)
            if len(x) == 0:
                continue
            if (x == 1).all():
                cells.append(f"{condition}:{task}=all-correct")
            elif (x == 0).all():
                cells.append(f"{condition}:{task}=all-wrong")
    if cells:
        out("model_note", set=set_name, engine=engine, kind="separation", cells=";".join(cells),
            text="condition x task cells where every answer scored the same: their terms are not estimable (complete separation)")


# ---- the integrity section: accuracy with and without the exclusion policy (lib/results/exclusions.ts) ----
def split_rules(text):
    return [] if not text else text.split(" | ")


def exclusion_accuracy(df, label):
    exact = df["exact"].astype(float)
    cols = {}
    for column in RESULT_COLUMNS:
        x = exact[df["result_column"] == column]
        if len(x) == 0:
            continue
        cols[column] = x.sum() / len(x)
        out("integrity_column", set=label, column=column, n=len(x), exact=fmt(cols[column]))
    paper = sum(cols[c] for c in PAPER_AVERAGE_COLUMNS) / len(PAPER_AVERAGE_COLUMNS) if all(c in cols for c in PAPER_AVERAGE_COLUMNS) else None
    out("integrity_accuracy", set=label, participants=df["participant_id"].nunique(), answers=len(df),
        exact=fmt(exact.sum() / len(df)) if len(df) else "NA", paper_average=fmt(paper))


def integrity(df, root, s):
    path = os.path.join(root, "data", s.get("participantsFile", ""))
    if not os.path.isfile(path):
        return
    p = pd.read_csv(path, dtype=str, keep_default_na=False)
    rules = split_rules(s.get("exclusionRules", ""))
    by = dict(zip(p["participant_id"], (split_rules(x) for x in p["excluded_by"])))
    excluded = {pid for pid, r in by.items() if r}
    # The page counts everyone with a main answer (its signal summaries) or a counted answer.
    everyone = set(df["participant_id"]) | set(p.loc[p["n_main_responses"].astype(int) > 0, "participant_id"])
    with_signals = p.loc[pd.to_numeric(p["sig_n_answers_with_signals"], errors="coerce").fillna(0) > 0, "participant_id"]
    out("integrity", participants=len(everyone), excluded=len(excluded), without_browser_signals=len(everyone) - with_signals.nunique(),
        rules=";".join(rules) if rules else "none")
    for rule in rules:
        out("integrity_rule", rule=rule, matched=sum(rule in r for r in by.values()), only=sum(r == [rule] for r in by.values()))
    exclusion_accuracy(df, "all")
    exclusion_accuracy(df[~df["participant_id"].isin(excluded)], "kept")


# ---- how the 3D view was used, per task (lib/results/three-d-usage.ts summarizeThreeDUsage) ----
def usage3d(trials, root, s):
    path = os.path.join(root, "data", s.get("usage3dFile", ""))
    if not os.path.isfile(path):
        return
    u = pd.read_csv(path, dtype=str, keep_default_na=False)
    out("usage3d_meta", interactive_answers=int((trials["condition"] == "interactive").sum()), with_viewer=len(u))
    # Tasks in the page's order (the MiSI task order), each task's answers in file order.
    rank = {t: i for i, t in enumerate(TASK_ORDER)}
    rows = sorted(range(len(u)), key=lambda i: rank.get(u["task_id"].iloc[i], 99))
    u = u.iloc[rows]

    def q(values):
        v = sorted(values)
        return quantile_sorted(v, 0.5), quantile_sorted(v, 0.25), quantile_sorted(v, 0.75)

    def median_of(values):
        return quantile_sorted(sorted(values), 0.5) if len(values) else None

    for task in dict.fromkeys(u["task_id"]):
        t = u[u["task_id"] == task]
        answer_ms = t["answer_ms"].astype(float).tolist()
        view3d_ms = t["view3d_ms"].astype(float).tolist()
        share = [v / a if a > 0 else 0.0 for v, a in zip(view3d_ms, answer_ms)]
        rotation = t["rotation_deg"].astype(float).tolist()
        zoom_in = [1 / z if z > 0 else 1.0 for z in t["zoom_min"].astype(float)]
        correct = (t["exact"].astype(int) == 1).tolist()
        turned = [r >= ROTATED_THRESHOLD_DEG for r in rotation]
        sh, ro, zo = q(share), q(rotation), q(zoom_in)
        out("usage3d", task=task, answers=len(t),
            share3d_median=fmt(sh[0]), share3d_q1=fmt(sh[1]), share3d_q3=fmt(sh[2]),
            rotation_median=fmt(ro[0]), rotation_q1=fmt(ro[1]), rotation_q3=fmt(ro[2]),
            zoom_in_median=fmt(zo[0]), zoom_in_q1=fmt(zo[1]), zoom_in_q3=fmt(zo[2]),
            with_reset=int((t["resets"].astype(int) > 0).sum()), with_label_toggle=int((t["label_toggles"].astype(int) > 0).sum()),
            turned_answers=sum(turned), turned_correct=sum(a and c for a, c in zip(turned, correct)),
            not_turned_answers=sum(not a for a in turned), not_turned_correct=sum((not a) and c for a, c in zip(turned, correct)),
            rotation_median_correct=fmt(median_of([r for r, c in zip(rotation, correct) if c])),
            rotation_median_wrong=fmt(median_of([r for r, c in zip(rotation, correct) if not c])))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(here)
    raw = pd.read_csv(os.path.join(root, "analysis", "settings.csv"), dtype=str, keep_default_na=False)
    s = dict(zip(raw["setting"], raw["value"]))
    settings = {"studyId": s["studyId"], "scope": s["scope"], "resultsSeed": s["resultsSeed"], "resultsReplicates": int(s["resultsReplicates"]),
                "confidence": float(s["confidence"]), "conditionSeed": int(s["conditionSeed"]), "conditionReplicates": int(s["conditionReplicates"])}
    # Every column as text (empty cells stay ""), converted where used: ids never turn into numbers.
    trials = pd.read_csv(os.path.join(root, "data", s["trialsFile"]), dtype=str, keep_default_na=False)
    counted = trials[trials["in_results"].astype(int) == 1].copy()
    counted["exact"] = counted["exact"].astype(int)
    counted["partial"] = counted["partial"].astype(float)
    # The study's exclusion policy applies to every estimate: answers of excluded participants (excluded = 1) are left
    # out; the condition effect and the model with them follow, marked set=all.
    is_excluded = counted["excluded"] == "1" if "excluded" in counted.columns else pd.Series(False, index=counted.index)
    df = counted[~is_excluded]
    out("meta", script="analysis.py", study=settings["studyId"], scope=settings["scope"], answers=len(df), participants=df["participant_id"].nunique(),
        items=df["item_id"].nunique(), seed=settings["resultsSeed"], replicates=settings["resultsReplicates"],
        excluded_participants=counted.loc[is_excluded, "participant_id"].nunique(), excluded_answers=int(is_excluded.sum()))
    seed = settings["resultsSeed"]
    laps = [time.perf_counter()]
    summarize_group(df, f"{seed}|all", "all", settings)
    for dimension in ("condition", "cohort"):
        for key in sorted(df[dimension].unique()):
            summarize_group(df[df[dimension] == key], f"{seed}|{dimension}={key}", f"{dimension}={key}", settings)
    integrity(counted, root, s)
    usage3d(trials, root, s)
    laps.append(time.perf_counter())
    # The condition effect over the answers of the two conditions, overall and per result column (T4 as Pos. and Neg.).
    sets = {"kept": df, "all": counted} if is_excluded.any() else {"kept": df}
    for set_name, data in sets.items():
        both = data[data["condition"].isin(["static", "interactive"])]
        condition_effect(both, "all", settings, set_name)
        for column in RESULT_COLUMNS:
            if (both["result_column"] == column).any():
                condition_effect(both[both["result_column"] == column], f"column={column}", settings, set_name)
    laps.append(time.perf_counter())
    for set_name, data in sets.items():
        fit_condition_model(data, set_name)
    laps.append(time.perf_counter())
    out("timing", page=f"{laps[1] - laps[0]:.2f}", effect=f"{laps[2] - laps[1]:.2f}", model=f"{laps[3] - laps[2]:.2f}", unit="s")


if __name__ == "__main__":
    main()
