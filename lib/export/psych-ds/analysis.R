#!/usr/bin/env Rscript
# Recomputes the misi-baseline results page from this Psych-DS dataset and fits the condition model.
#
#   Rscript analysis/analysis.R [DATASET_DIR]     (base R + lme4; Debian: r-base-core r-cran-lme4)
#
# DATASET_DIR defaults to the folder above this script. Output: one line per number, `kind key=value ...`, values
# unrounded (17 significant digits, fractions in [0, 1]); docs/analysis-package.md in the app describes every line.
# - accuracy: per result column and group (all / condition=X / cohort=X), metric exact or partial: the pooled mean
#   and the 95 % interval the page reports: a participant bootstrap (mulberry32 seeded with FNV-1a of the page's
#   seed string), or the clustered Wilson interval where the bootstrap collapses or is unreliable.
# - average: the paper's Avg (8 columns) and the all-task average (10 columns), NA when a column has no answers.
# - effect: accuracy(interactive) - accuracy(static) (exact score), overall and per result column, with the page's Welch t
#   interval on participants (low, high, se, df; lib/stats/condition-effect-interval.ts) and, for checking, the crossed
#   participant x item bootstrap (bootstrap_low, bootstrap_high; Park-Miller) as lib/stats/crossed-bootstrap.ts computes it.
# - Exclusions: every estimate leaves out the answers of participants the study's exclusion policy excludes (trials
#   column excluded = 1), as the page does; the effect and model lines carry set=kept, and when anyone is excluded the
#   same lines follow with set=all (everyone kept in).
# - integrity*: the integrity section, exact accuracy for all participants and after exclusions (the participants
#   file's excluded_by, computed with the page's policy) and the participants each rule excludes.
# - usage3d: the 3D-usage section per task, from the usage3d file (rounded metrics: equal at the page's precision).
# - model: lme4::glmer(correct ~ condition * task + (1|participant) + (1|item), family = binomial), maximum likelihood;
#   model_note kind=separation / large-se when cells are all-correct or all-wrong or an SE exceeds 10 (not usable).

RESULT_COLUMNS <- c("translation", "rotation", "zooming", "residue_ligand_pos", "residue_ligand_neg",
                    "translation_rotation", "rotation_rotation", "docking", "interaction_location", "pocket_ligand")
PAPER_AVERAGE_COLUMNS <- setdiff(RESULT_COLUMNS, c("translation_rotation", "rotation_rotation"))
TASK_ORDER <- c("translation", "rotation", "zooming", "residue_ligand", "translation_rotation", "rotation_rotation", "docking", "interaction_location", "pocket_ligand")
ROTATED_THRESHOLD_DEG <- 15
LARGE_SE <- 10
MIN_BOOTSTRAP_PARTICIPANTS <- 10
MIN_REPORTED_WIDTH <- 0.001
U32 <- 4294967296

fmt <- function(x) if (is.null(x) || length(x) == 0 || is.na(x) || !is.finite(x)) "NA" else sprintf("%.17g", x)
enc <- function(v) gsub(" ", "%20", gsub("%", "%25", as.character(v), fixed = TRUE), fixed = TRUE)
out <- function(.line_kind, ...) {
  f <- list(...)
  cat(.line_kind, paste0(" ", names(f), "=", vapply(f, enc, ""), collapse = ""), "\n", sep = "")
}

# ---- the results page's RNG: FNV-1a seed hash and mulberry32 (lib/rng.ts), on doubles holding uint32 values ----
xor32 <- function(a, b) {
  bitwXor(as.integer(a %/% 65536), as.integer(b %/% 65536)) * 65536 + bitwXor(as.integer(a %% 65536), as.integer(b %% 65536))
}
imul32 <- function(a, b) {
  ah <- a %/% 65536; al <- a %% 65536; bh <- b %/% 65536; bl <- b %% 65536
  (((ah * bl + al * bh) %% 65536) * 65536 + al * bl) %% U32
}
or1 <- function(t) t + (t %% 2 == 0)
or61 <- function(t) { lo <- t %% 64; t - lo + bitwOr(as.integer(lo), 61L) }
hash_seed <- function(seed) {
  units <- c()
  for (cp in utf8ToInt(enc2utf8(as.character(seed)))) {
    # JavaScript strings are UTF-16: a code point above U+FFFF is two code units.
    units <- c(units, if (cp > 65535) c(55296 + (cp - 65536) %/% 1024, 56320 + (cp - 65536) %% 1024) else cp)
  }
  h <- 2166136261
  for (u in units) h <- imul32(xor32(h, u), 16777619)
  h
}
# The first n numbers of createRng(seed).next(): state k is seed + k * 0x6d2b79f5 (mod 2^32).
mulberry32 <- function(seed, n) {
  t <- (hash_seed(seed) + seq_len(n) * 1831565813) %% U32
  t <- imul32(xor32(t, t %/% 32768), or1(t))
  t <- xor32(t, (t + imul32(xor32(t, t %/% 128), or61(t))) %% U32)
  xor32(t, t %/% 16384) / U32
}

quantile_sorted <- function(v, p) {
  h <- (length(v) - 1) * p
  lo <- floor(h)
  below <- v[lo + 1]
  above <- v[min(lo + 2, length(v))]
  w <- h - lo
  if (w == 0) below else below * (1 - w) + above * w
}

wilson_limits <- function(p, n, confidence) {
  z <- qnorm(1 - (1 - confidence) / 2)
  z2 <- z * z
  den <- 1 + z2 / n
  centre <- (p + z2 / (2 * n)) / den
  half <- (z / den) * sqrt((p * (1 - p)) / n + z2 / (4 * n * n))
  c(if (p == 0) 0 else max(0, centre - half), if (p == 1) 1 else min(1, centre + half))
}

estimate_icc <- function(clusters) {
  k <- length(clusters)
  sizes <- lengths(clusters)
  n <- sum(sizes)
  if (k < 2 || n <= k) return(NULL)
  grand <- sum(vapply(clusters, sum, 0)) / n
  means <- vapply(clusters, mean, 0)
  ssb <- sum(sizes * (means - grand)^2)
  ssw <- sum(unlist(Map(function(c, m) sum((c - m)^2), clusters, means)))
  msb <- ssb / (k - 1)
  msw <- ssw / (n - k)
  m0 <- (n - sum(sizes^2) / n) / (k - 1)
  den <- msb + (m0 - 1) * msw
  raw <- if (den == 0) 0 else (msb - msw) / den
  min(1, max(0, raw))
}

clustered_wilson <- function(clusters, confidence) {
  values <- unlist(clusters)
  n <- length(values)
  estimate <- min(1, max(0, sum(values) / n))
  icc <- if (all(values == values[1])) NULL else estimate_icc(clusters)
  rho <- if (is.null(icc)) 1 else icc
  de <- 1 + (sum(lengths(clusters)^2) / n - 1) * rho
  wilson_limits(estimate, n / de, confidence)
}

# lib/stats/bootstrap.ts bootstrapClusterMean + lib/results/interval-rule.ts chooseReportedInterval: the bootstrap's
# own limits and the reported interval.
reported_interval <- function(clusters, seed, replicates, confidence) {
  g <- length(clusters)
  sums <- vapply(clusters, sum, 0)
  counts <- lengths(clusters)
  picks <- matrix(floor(mulberry32(seed, replicates * g) * g) + 1, nrow = replicates, byrow = TRUE)
  means <- sort(rowSums(matrix(sums[picks], nrow = replicates)) / rowSums(matrix(counts[picks], nrow = replicates)))
  alpha <- 1 - confidence
  low <- quantile_sorted(means, alpha / 2)
  high <- quantile_sorted(means, 1 - alpha / 2)
  values <- unlist(clusters)
  reason <- if (all(values == values[1])) "boundary" else if (g < MIN_BOOTSTRAP_PARTICIPANTS) "few-participants" else if (high - low < MIN_REPORTED_WIDTH) "narrow" else "none"
  if (reason == "none") return(list(b_low = low, b_high = high, low = low, high = high, method = "participant-bootstrap", reason = reason))
  cw <- clustered_wilson(clusters, confidence)
  list(b_low = low, b_high = high, low = cw[1], high = cw[2], method = "clustered-wilson", reason = reason)
}

# One metric of one column: pooled mean, bootstrap, reported interval, Wilson (0/1 scores) and participant spread.
summarize_metric <- function(scores, participant, ids, seed, settings, binary) {
  clusters <- unname(split(scores, factor(participant, levels = ids)))
  n <- sum(lengths(clusters))
  value <- sum(vapply(clusters, sum, 0)) / n
  iv <- reported_interval(clusters, seed, settings$resultsReplicates, settings$confidence)
  means <- sort(vapply(clusters, function(c) sum(c) / length(c), 0))
  fields <- list(value = fmt(value), low = fmt(iv$low), high = fmt(iv$high), method = iv$method, reason = iv$reason,
                 bootstrap_low = fmt(iv$b_low), bootstrap_high = fmt(iv$b_high))
  if (binary) {
    w <- wilson_limits(value, n, settings$confidence)
    fields <- c(fields, list(wilson_low = fmt(w[1]), wilson_high = fmt(w[2])))
  }
  fields <- c(fields, list(spread_min = fmt(means[1]), spread_median = fmt(quantile_sorted(means, 0.5)), spread_max = fmt(means[length(means)])))
  list(value = value, fields = fields)
}

summarize_group <- function(d, prefix, label, settings) {
  metrics <- c("exact", "partial", "fair-exact", "fair-partial")
  cells <- setNames(lapply(metrics, function(m) list()), metrics)
  for (column in RESULT_COLUMNS) {
    sub <- d[d$result_column == column, , drop = FALSE]
    if (nrow(sub) == 0) next
    # Clusters in participant-id order (code-unit order, as the page sorts them).
    ids <- sort(unique(sub$participant_id), method = "radix")
    exact <- as.numeric(sub$exact)
    partial <- as.numeric(sub$partial)
    # The fair score where the answer has one, else the paper score (lib/results/summarize.ts fairExactOf).
    fair_exact <- ifelse(sub$fair_exact != "", suppressWarnings(as.numeric(sub$fair_exact)), exact)
    fair_partial <- ifelse(sub$fair_partial != "", suppressWarnings(as.numeric(sub$fair_partial)), partial)
    # Without any fair score in the column the page reuses the paper numbers (and their intervals).
    has_fair <- any(sub$fair_exact != "" | sub$fair_partial != "")
    results <- list()
    for (metric in metrics) {
      scores <- switch(metric, exact = exact, partial = partial, "fair-exact" = fair_exact, "fair-partial" = fair_partial)
      results[[metric]] <- if (startsWith(metric, "fair-") && !has_fair) results[[substring(metric, 6)]] else
        summarize_metric(scores, sub$participant_id, ids, paste0(prefix, "|", column, "|", metric), settings, metric %in% c("exact", "fair-exact"))
      cells[[metric]][[column]] <- results[[metric]]$value
      do.call(out, c(list("accuracy", group = label, column = column, metric = metric, n = nrow(sub), participants = length(ids),
                          items = length(unique(sub$item_id))), results[[metric]]$fields))
    }
    out("f1", group = label, column = column, value = if (all(sub$fair_f1 != "")) fmt(sum(as.numeric(sub$fair_f1)) / nrow(sub)) else "NA")
  }
  for (metric in metrics) {
    for (kind in c("paper", "all-task")) {
      cols <- if (kind == "paper") PAPER_AVERAGE_COLUMNS else RESULT_COLUMNS
      value <- if (all(cols %in% names(cells[[metric]]))) sum(unlist(cells[[metric]][cols])) / length(cols) else NA
      out("average", group = label, kind = kind, metric = metric, value = fmt(value))
    }
  }
}

# ---- the condition effect: crossed participant x item bootstrap (condition-bootstrap contract) ----
park_miller <- function(seed, n) {
  s <- ((seed - 1) %% 2147483646) + 1
  u <- numeric(n)
  for (i in seq_len(n)) {
    s <- (16807 * s) %% 2147483647
    u[i] <- s / 2147483647
  }
  u
}

condition_effect <- function(d, label, settings, set) {
  seed <- settings$conditionSeed
  B <- settings$conditionReplicates
  interactive <- d$condition == "interactive"
  n_static <- sum(d$condition == "static")
  n_interactive <- sum(interactive)
  people <- sort(unique(d$participant_id), method = "radix")
  items <- sort(unique(d$item_id), method = "radix")
  n_p <- length(people)
  n_i <- length(items)
  if (n_static == 0 || n_interactive == 0) {
    out("effect", set = set, subset = label, estimate = "NA", low = "NA", high = "NA", se = "NA", df = "NA", bootstrap_low = "NA", bootstrap_high = "NA",
        B = B, seed = seed, skipped = 0, participants = n_p, items = n_i, n_static = n_static, n_interactive = n_interactive)
    return(invisible())
  }
  correct <- as.numeric(d$exact)
  p_index <- match(d$participant_id, people)
  i_index <- match(d$item_id, items)
  estimate <- sum(correct[interactive]) / sum(interactive) - sum(correct[!interactive]) / sum(!interactive)
  u <- matrix(park_miller(seed, B * (n_p + n_i)), nrow = B, byrow = TRUE)
  values <- numeric(0)
  skipped <- 0
  for (b in seq_len(B)) {
    c_p <- tabulate(floor(u[b, seq_len(n_p)] * n_p) + 1, n_p)
    c_i <- tabulate(floor(u[b, n_p + seq_len(n_i)] * n_i) + 1, n_i)
    w <- c_p[p_index] * c_i[i_index]
    w_int <- sum(w[interactive])
    w_sta <- sum(w[!interactive])
    if (w_int == 0 || w_sta == 0) {
      skipped <- skipped + 1
      next
    }
    values <- c(values, sum(w[interactive] * correct[interactive]) / w_int - sum(w[!interactive] * correct[!interactive]) / w_sta)
  }
  values <- sort(values)
  alpha <- 1 - settings$confidence
  b_low <- if (length(values) > 0) quantile_sorted(values, alpha / 2) else NA
  b_high <- if (length(values) > 0) quantile_sorted(values, 1 - alpha / 2) else NA
  # Welch t interval on participants: V = G/(G-1) * sum((correct_i - m_i * p)^2) / M^2 per condition, Welch-Satterthwaite df.
  moments <- function(keep) {
    m <- tapply(rep(1, sum(keep)), d$participant_id[keep], sum)
    k <- tapply(correct[keep], d$participant_id[keep], sum)
    p <- sum(k) / sum(m)
    g <- length(m)
    list(g = g, v = if (g < 2) 0 else g / (g - 1) * sum((k - m * p)^2) / sum(m)^2)
  }
  s_m <- moments(!interactive)
  x_m <- moments(interactive)
  se <- NA
  df <- NA
  low <- NA
  high <- NA
  if (s_m$g >= 2 && x_m$g >= 2) {
    se <- sqrt(s_m$v + x_m$v)
    den <- s_m$v^2 / (s_m$g - 1) + x_m$v^2 / (x_m$g - 1)
    df <- if (den == 0) min(s_m$g, x_m$g) - 1 else (s_m$v + x_m$v)^2 / den
    half <- if (se == 0) 0 else qt(1 - alpha / 2, df) * se
    low <- estimate - half
    high <- estimate + half
  }
  out("effect", set = set, subset = label, estimate = fmt(estimate), low = fmt(low), high = fmt(high), se = fmt(se), df = fmt(df), bootstrap_low = fmt(b_low),
      bootstrap_high = fmt(b_high), B = B, seed = seed, skipped = skipped, participants = n_p, items = n_i, n_static = n_static, n_interactive = n_interactive)
}

fit_condition_model <- function(d, set) {
  if (!requireNamespace("lme4", quietly = TRUE)) {
    out("model", set = set, engine = "lme4::glmer", status = "unavailable", reason = "package lme4 is not installed (Debian: r-cran-lme4)")
    return(invisible())
  }
  data <- data.frame(correct = as.numeric(d$exact), condition = factor(d$condition, levels = c("static", "interactive")),
                     task = factor(d$task_id), participant = factor(d$participant_id), item = factor(d$item_id))
  if (length(unique(d$condition)) < 2) {
    out("model", set = set, engine = "lme4::glmer", status = "skipped", reason = "fewer than two conditions")
    return(invisible())
  }
  formula <- if (nlevels(data$task) > 1) correct ~ condition * task + (1 | participant) + (1 | item) else correct ~ condition + (1 | participant) + (1 | item)
  notes <- character(0)
  fit <- tryCatch(
    withCallingHandlers(lme4::glmer(formula, data = data, family = binomial),
                        warning = function(w) { notes <<- c(notes, conditionMessage(w)); invokeRestart("muffleWarning") },
                        message = function(m) { notes <<- c(notes, trimws(conditionMessage(m))); invokeRestart("muffleMessage") }),
    error = function(e) e)
  if (inherits(fit, "error")) {
    out("model", set = set, engine = "lme4::glmer", status = "failed", reason = conditionMessage(fit))
    return(invisible())
  }
  out("model", set = set, engine = "lme4::glmer", method = "Laplace", status = "ok", n = nrow(data), singular = lme4::isSingular(fit))
  for (note in notes) out("model_note", set = set, engine = "lme4", text = gsub("\n", " ", note))
  co <- summary(fit)$coefficients
  large <- rownames(co)[co[, 2] > LARGE_SE]
  if (length(large) > 0) {
    out("model_note", set = set, engine = "lme4", kind = "large-se", terms = paste(large, collapse = ";"),
        text = sprintf("standard error above %d on the log-odds scale: the estimate is not usable (separation or too few answers)", LARGE_SE))
  }
  separation_note(d, "lme4", set)
  for (i in seq_len(nrow(co))) {
    out("model_term", set = set, engine = "lme4", term = rownames(co)[i], estimate = fmt(co[i, 1]), se = fmt(co[i, 2]), z = fmt(co[i, 3]), p = fmt(co[i, 4]))
  }
  vc <- as.data.frame(lme4::VarCorr(fit))
  for (i in seq_len(nrow(vc))) out("model_variance", set = set, engine = "lme4", component = vc$grp[i], sd = fmt(vc$sdcor[i]))
  # Treatment coding: conditioninteractive is the log-odds difference in the reference task (the alphabetically first
  # task id); each task's own effect adds its interaction term, with the SE from the fixed effects' covariance.
  out("model_formula", set = set, engine = "lme4", formula = paste(deparse(formula, width.cutoff = 500L), collapse = " "),
      coding = "treatment", condition_reference = "static", task_reference = levels(data$task)[1])
  V <- as.matrix(vcov(fit))
  for (task in levels(data$task)) {
    terms <- c("conditioninteractive", if (task != levels(data$task)[1]) paste0("conditioninteractive:task", task))
    terms <- terms[terms %in% rownames(co)]
    estimate <- sum(co[terms, 1])
    se <- sqrt(sum(V[terms, terms]))
    out("model_task_effect", set = set, engine = "lme4", task = task, log_odds = fmt(estimate), se = fmt(se), z = fmt(estimate / se),
        p = fmt(2 * pnorm(-abs(estimate / se))))
  }
  # Overall test of condition (its main effect and every interaction together): likelihood ratio against the model
  # without condition, both fitted by maximum likelihood.
  reduced <- if (nlevels(data$task) > 1) correct ~ task + (1 | participant) + (1 | item) else correct ~ 1 + (1 | participant) + (1 | item)
  fit0 <- tryCatch(suppressMessages(suppressWarnings(lme4::glmer(reduced, data = data, family = binomial))), error = function(e) e)
  if (inherits(fit0, "error")) {
    out("model_test", set = set, engine = "lme4", test = "lrt-condition", status = "failed", reason = conditionMessage(fit0))
  } else {
    chisq <- as.numeric(2 * (logLik(fit) - logLik(fit0)))
    df <- attr(logLik(fit), "df") - attr(logLik(fit0), "df")
    out("model_test", set = set, engine = "lme4", test = "lrt-condition", status = "ok", chisq = fmt(chisq), df = df,
        p = fmt(pchisq(chisq, df, lower.tail = FALSE)), reduced = paste(deparse(reduced, width.cutoff = 500L), collapse = " "))
  }
}

# Condition x task cells where every answer was correct or every one wrong: the model's log-odds there run to
# +/- infinity (complete separation), so its terms for those cells, and their SEs, mean nothing.
separation_note <- function(d, engine, set) {
  cells <- character(0)
  for (condition in sort(unique(d$condition), method = "radix")) {
    for (task in sort(unique(d$task_id), method = "radix")) {
      x <- as.numeric(d$exact[d$condition == condition & d$task_id == task])
      if (length(x) == 0) next
      if (all(x == 1)) cells <- c(cells, paste0(condition, ":", task, "=all-correct"))
      else if (all(x == 0)) cells <- c(cells, paste0(condition, ":", task, "=all-wrong"))
    }
  }
  if (length(cells) > 0) {
    out("model_note", set = set, engine = engine, kind = "separation", cells = paste(cells, collapse = ";"),
        text = "condition x task cells where every answer scored the same: their terms are not estimable (complete separation)")
  }
}

# ---- the integrity section: accuracy with and without the exclusion policy (lib/results/exclusions.ts) ----
split_rules <- function(x) if (is.null(x) || is.na(x) || x == "") character(0) else strsplit(x, " | ", fixed = TRUE)[[1]]

exclusion_accuracy <- function(d, label) {
  exact <- as.numeric(d$exact)
  cols <- list()
  for (column in RESULT_COLUMNS) {
    x <- exact[d$result_column == column]
    if (length(x) == 0) next
    cols[[column]] <- sum(x) / length(x)
    out("integrity_column", set = label, column = column, n = length(x), exact = fmt(cols[[column]]))
  }
  paper <- if (all(PAPER_AVERAGE_COLUMNS %in% names(cols))) sum(unlist(cols[PAPER_AVERAGE_COLUMNS])) / length(PAPER_AVERAGE_COLUMNS) else NA
  out("integrity_accuracy", set = label, participants = length(unique(d$participant_id)), answers = nrow(d),
      exact = if (nrow(d) > 0) fmt(sum(exact) / nrow(d)) else "NA", paper_average = fmt(paper))
}

integrity <- function(d, root, s) {
  file <- file.path(root, "data", if (is.null(s$participantsFile)) "" else s$participantsFile)
  if (!file.exists(file) || dir.exists(file)) return(invisible())
  p <- read.csv(file, colClasses = "character", na.strings = character(0), encoding = "UTF-8")
  rules <- split_rules(s$exclusionRules)
  by <- setNames(lapply(p$excluded_by, split_rules), p$participant_id)
  excluded <- names(by)[lengths(by) > 0]
  # The page counts everyone with a main answer (its signal summaries) or a counted answer.
  everyone <- union(d$participant_id, p$participant_id[as.integer(p$n_main_responses) > 0])
  with_signals <- p$participant_id[p$sig_n_answers_with_signals != "" & suppressWarnings(as.integer(p$sig_n_answers_with_signals)) > 0]
  out("integrity", participants = length(everyone), excluded = length(excluded), without_browser_signals = length(everyone) - length(with_signals),
      rules = if (length(rules) > 0) paste(rules, collapse = ";") else "none")
  for (rule in rules) {
    out("integrity_rule", rule = rule, matched = sum(vapply(by, function(r) rule %in% r, TRUE)),
        only = sum(vapply(by, function(r) length(r) == 1 && r[1] == rule, TRUE)))
  }
  exclusion_accuracy(d, "all")
  exclusion_accuracy(d[!(d$participant_id %in% excluded), , drop = FALSE], "kept")
}

# ---- how the 3D view was used, per task (lib/results/three-d-usage.ts summarizeThreeDUsage) ----
usage3d <- function(trials, root, s) {
  file <- file.path(root, "data", if (is.null(s$usage3dFile)) "" else s$usage3dFile)
  if (!file.exists(file) || dir.exists(file)) return(invisible())
  u <- read.csv(file, colClasses = "character", na.strings = character(0), encoding = "UTF-8")
  out("usage3d_meta", interactive_answers = sum(trials$condition == "interactive"), with_viewer = nrow(u))
  if (nrow(u) == 0) return(invisible())
  # Tasks in the page's order (the MiSI task order), each task's answers in file order.
  u <- u[order(match(u$task_id, TASK_ORDER, nomatch = 99), seq_len(nrow(u))), , drop = FALSE]
  median_of <- function(x) if (length(x) == 0) NA else quantile_sorted(sort(x), 0.5)
  for (task in unique(u$task_id)) {
    t <- u[u$task_id == task, , drop = FALSE]
    answer_ms <- as.numeric(t$answer_ms)
    share <- ifelse(answer_ms > 0, as.numeric(t$view3d_ms) / answer_ms, 0)
    rotation <- as.numeric(t$rotation_deg)
    zoom_min <- as.numeric(t$zoom_min)
    zoom_in <- ifelse(zoom_min > 0, 1 / zoom_min, 1)
    correct <- as.integer(t$exact) == 1
    turned <- rotation >= ROTATED_THRESHOLD_DEG
    q <- function(x) { x <- sort(x); c(quantile_sorted(x, 0.5), quantile_sorted(x, 0.25), quantile_sorted(x, 0.75)) }
    sh <- q(share); ro <- q(rotation); zo <- q(zoom_in)
    out("usage3d", task = task, answers = nrow(t),
        share3d_median = fmt(sh[1]), share3d_q1 = fmt(sh[2]), share3d_q3 = fmt(sh[3]),
        rotation_median = fmt(ro[1]), rotation_q1 = fmt(ro[2]), rotation_q3 = fmt(ro[3]),
        zoom_in_median = fmt(zo[1]), zoom_in_q1 = fmt(zo[2]), zoom_in_q3 = fmt(zo[3]),
        with_reset = sum(as.integer(t$resets) > 0), with_label_toggle = sum(as.integer(t$label_toggles) > 0),
        turned_answers = sum(turned), turned_correct = sum(turned & correct),
        not_turned_answers = sum(!turned), not_turned_correct = sum(!turned & correct),
        rotation_median_correct = fmt(median_of(rotation[correct])), rotation_median_wrong = fmt(median_of(rotation[!correct])))
  }
}

main <- function() {
  args <- commandArgs(trailingOnly = TRUE)
  file_arg <- grep("^--file=", commandArgs(), value = TRUE)
  root <- if (length(args) >= 1) args[1] else if (length(file_arg) == 1) dirname(dirname(normalizePath(sub("^--file=", "", file_arg)))) else ".."
  raw <- read.csv(file.path(root, "analysis", "settings.csv"), colClasses = "character")
  s <- setNames(as.list(raw$value), raw$setting)
  settings <- list(studyId = s$studyId, scope = s$scope, resultsSeed = s$resultsSeed, resultsReplicates = as.integer(s$resultsReplicates),
                   confidence = as.numeric(s$confidence), conditionSeed = as.numeric(s$conditionSeed), conditionReplicates = as.integer(s$conditionReplicates))
  trials <- read.csv(file.path(root, "data", s$trialsFile), colClasses = "character", na.strings = character(0), encoding = "UTF-8")
  counted <- trials[trials$in_results == "1", , drop = FALSE]
  counted$exact <- as.integer(counted$exact)
  counted$partial <- as.numeric(counted$partial)
  # The study's exclusion policy applies to every estimate: answers of excluded participants (excluded = 1) are left
  # out; the condition effect and the model with them follow, marked set=all.
  is_excluded <- if ("excluded" %in% names(counted)) counted$excluded == "1" else rep(FALSE, nrow(counted))
  d <- counted[!is_excluded, , drop = FALSE]
  out("meta", script = "analysis.R", study = settings$studyId, scope = settings$scope, answers = nrow(d), participants = length(unique(d$participant_id)),
      items = length(unique(d$item_id)), seed = settings$resultsSeed, replicates = settings$resultsReplicates,
      excluded_participants = length(unique(counted$participant_id[is_excluded])), excluded_answers = sum(is_excluded))
  seed <- settings$resultsSeed
  started <- proc.time()[["elapsed"]]
  lap <- function() { now <- proc.time()[["elapsed"]]; on.exit(started <<- now); now - started }
  summarize_group(d, paste0(seed, "|all"), "all", settings)
  for (dimension in c("condition", "cohort")) {
    for (key in sort(unique(d[[dimension]]), method = "radix")) {
      summarize_group(d[d[[dimension]] == key, , drop = FALSE], paste0(seed, "|", dimension, "=", key), paste0(dimension, "=", key), settings)
    }
  }
  integrity(counted, root, s)
  usage3d(trials, root, s)
  summary_seconds <- lap()
  # The condition effect over the answers of the two conditions, overall and per result column (T4 as Pos. and Neg.).
  sets <- if (any(is_excluded)) list(kept = d, all = counted) else list(kept = d)
  for (set in names(sets)) {
    both <- sets[[set]][sets[[set]]$condition %in% c("static", "interactive"), , drop = FALSE]
    condition_effect(both, "all", settings, set)
    for (column in RESULT_COLUMNS) {
      if (any(both$result_column == column)) condition_effect(both[both$result_column == column, , drop = FALSE], paste0("column=", column), settings, set)
    }
  }
  effect_seconds <- lap()
  for (set in names(sets)) fit_condition_model(sets[[set]], set)
  out("timing", page = sprintf("%.2f", summary_seconds), effect = sprintf("%.2f", effect_seconds), model = sprintf("%.2f", lap()), unit = "s")
}

main()
