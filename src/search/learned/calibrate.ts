/**
 * C13 — how much the learned field may count, decided by the log itself. Each of the latest
 * searches is replayed as if it had not been logged (leave-one-out): its words are searched, the
 * field (without it) is fused at each candidate weight, and the weight that finds the most of the
 * tools it led to wins — 0 (the field off) unless another finds at least one more. Where people
 * repeat intents in their own words the replay shows the field finding what the tools' text misses
 * and the weight rises; where the log's look-alike words lead to different tools (catalogs of near
 * twins: gcd, math.gcd, number_theory.gcd) it shows the field pulling in the wrong twin and keeps
 * it off. One rule for every catalog; what differs is the evidence.
 */
import type { RankedTool } from '../ranker.js';
import type { LearnedChannel } from './channel.js';
import type { LearnedField } from './field.js';
import { fuseLearned, type LearnedFusionOptions } from './fuse.js';
import { type LexicalSource, rankerPositions } from './lexical.js';
import type { LearnedLog } from './log.js';

/** Candidate weights of the field (in units of the top lexical score). */
export const FIELD_WEIGHTS: readonly number[] = [0, 0.1, 0.25, 0.5, 1, 2, 4];

/**
 * At most this many of the latest distinct searches are replayed. 150 was enough to weigh the
 * field, but the kNN channel over the field's list changes few searches (about one in twelve on
 * ToolLens), too few in 150 for the sign test to see a gain the evaluation shows (+0.06 R@5 at
 * F = 0.5); 500 sees it, and changes no set's verdict the other way (bench/README.md, "Learning
 * that keeps its gains"). The replay runs after a search, once the log has grown by a tenth.
 */
export const CALIBRATION_SAMPLE = 500;

/**
 * C14: at most this many of the replayed searches may come from one source alone (3 % of the
 * sample), so one identity's searches cannot decide the field's weight for everyone (turn it off,
 * or up) by filling the sample. A search two sources made counts against neither; a trusted
 * source (C15) is not capped.
 */
export const MAX_REPLAYS_PER_SOURCE = 15;

/** Depth of the lexical list the replay fuses (as the query path does). */
const REPLAY_CUT = 5;

/** One distinct past search: its terms (as it was made) and the pool tools it led to. */
export interface PastSearch {
  /** The log's key for it (its terms joined). */
  readonly key: string;
  readonly terms: readonly string[];
  readonly tools: readonly string[];
  readonly last: number;
  /** C14: who made it (the sources of its entries, as kept). */
  readonly sources: readonly string[];
}

export interface Calibration {
  /** The field's weight: 0 = off. */
  readonly weight: number;
  /** Searches replayed. */
  readonly replayed: number;
  /** Mean recall@5 of the replayed searches' tools, per weight of `FIELD_WEIGHTS`. */
  readonly recall: readonly number[];
  /** Per weight: replayed searches it found more (fewer) of the tools for than the field off. */
  readonly helped: readonly number[];
  readonly hurt: readonly number[];
}

/**
 * Distinct term sets of the log with the tools each led to (a search that led to several tools is
 * one). C14: every search recorded, whole — also those whose words are not (yet) corroborated:
 * they are searches as people make them, and the replay must see where the field would pull
 * them to other tools too, not only the searches it can help.
 */
export function pastSearches(log: LearnedLog, present: (tool: string) => boolean): PastSearch[] {
  const byKey = new Map<
    string,
    { key: string; terms: readonly string[]; tools: string[]; last: number; sources: Set<string> }
  >();
  for (const [tool, evidence] of log.entries()) {
    if (!present(tool)) continue;
    for (const [key, entry] of evidence.entries) {
      const seen = byKey.get(key);
      if (!seen)
        byKey.set(key, { key, terms: entry.terms, tools: [tool], last: entry.last, sources: new Set(entry.sources) });
      else {
        seen.tools.push(tool);
        seen.last = Math.max(seen.last, entry.last);
        for (const source of entry.sources) seen.sources.add(source);
      }
    }
  }
  return [...byKey.values()].map((search) => ({ ...search, sources: [...search.sources] }));
}

/** One replayed search: the search, its lexical list and the weight one search of it carries now. */
export interface Replay {
  readonly search: PastSearch;
  readonly lexical: readonly RankedTool[];
  /**
   * The lexical score of each tool the field scores for the search (by field id), where the ranker
   * keeps every tool's score: the query path's fusion is exact for those tools (fuse-field.ts).
   */
  readonly fieldLexical?: ReadonlyMap<number, number>;
  readonly gold: ReadonlySet<string>;
  readonly weight: number;
  /** C14: per tool, the field's term ids that lose corroboration when this search is held out. */
  readonly unconfirmed: ReadonlyMap<string, readonly number[]>;
}

/** What the replay searches with: the ranker for any text, and every tool's last score when kept. */
export type ReplaySource = Required<Pick<LexicalSource, 'searchText'>> & Pick<LexicalSource, 'lastScores'>;

/** The latest `CALIBRATION_SAMPLE` searches, each searched lexically once (both replays share them). */
export function replaysOf(
  searches: readonly PastSearch[],
  lexical: ReplaySource,
  field: LearnedField,
  decay: (last: number) => number,
  depth: number,
  log: LearnedLog,
): Replay[] {
  // A trusted source (C15: the one identity of a gateway only it reaches, or any source with
  // corroboration off) is the log's own user: its searches are not capped.
  const latest = sample(
    [...searches].sort((a, b) => b.last - a.last),
    (source) => (log.trusts(source) ? CALIBRATION_SAMPLE : MAX_REPLAYS_PER_SOURCE),
  );
  return latest.map((search) => {
    const list = lexical.searchText(search.terms.join(' '), depth);
    const fieldLexical = lexicalOfFieldTools(field, search.terms, lexical.lastScores?.());
    return {
      search,
      lexical: list,
      ...(fieldLexical && { fieldLexical }),
      gold: new Set(search.tools),
      weight: decay(search.last),
      unconfirmed: unconfirmedTerms(log, field, search),
    };
  });
}

/** The first `CALIBRATION_SAMPLE` of `searches` (latest first), at most `maxPerSource(source)` per lone source. */
function sample(searches: readonly PastSearch[], maxPerSource: (source: string) => number): PastSearch[] {
  const out: PastSearch[] = [];
  const perSource = new Map<string, number>();
  for (const search of searches) {
    if (out.length >= CALIBRATION_SAMPLE) break;
    const lone = search.sources.length === 1 ? search.sources[0]! : undefined;
    if (lone !== undefined) {
      const n = perSource.get(lone) ?? 0;
      if (n >= maxPerSource(lone)) continue;
      perSource.set(lone, n + 1);
    }
    out.push(search);
  }
  return out;
}

/** Per tool of `search`, the field's ids of the words only this search confirmed for it (C14). */
function unconfirmedTerms(log: LearnedLog, field: LearnedField, search: PastSearch): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const tool of search.tools) {
    const ids = field.termIdsOf(log.unconfirmedWithout(tool, search.key));
    if (ids.length > 0) out.set(tool, ids);
  }
  return out;
}

/** The lexical score of each tool the field scores for `terms` (those with one), by field id. */
function lexicalOfFieldTools(
  field: LearnedField,
  terms: readonly string[],
  all: ReturnType<NonNullable<LexicalSource['lastScores']>>,
): Map<number, number> | undefined {
  if (!all) return undefined;
  const ids = field.termIdsOf(terms);
  const out = new Map<number, number>();
  if (ids.length === 0) return out;
  const at = rankerPositions(field, all.names);
  const { tools } = field.score(ids);
  for (const d of tools) {
    const p = at[d]!;
    const s = p >= 0 ? all.scores[p]! : 0;
    if (s > 0) out.set(d, s);
  }
  return out;
}

export function calibrateField(field: LearnedField, replays: readonly Replay[]): Calibration {
  const found = FIELD_WEIGHTS.map(() => 0);
  const helped = FIELD_WEIGHTS.map(() => 0);
  const hurt = FIELD_WEIGHTS.map(() => 0);
  let replayed = 0;
  for (const replay of replays) {
    const { lexical, gold } = replay;
    const fused = heldField(field, replay);
    const base = recallAt(lexical, fused, 0, gold);
    for (const [k, weight] of FIELD_WEIGHTS.entries()) {
      const recall = k === 0 ? base : recallAt(lexical, fused, weight, gold);
      found[k]! += recall;
      if (recall > base + 1e-9) helped[k]!++;
      else if (recall < base - 1e-9) hurt[k]!++;
    }
    replayed++;
  }
  const recall = found.map((f) => (replayed > 0 ? f / replayed : 0));
  // The weight with the largest clear gain over none, the smallest on ties; none when no gain is clear.
  let best = 0;
  let bestGain = 0;
  for (let k = 1; k < FIELD_WEIGHTS.length; k++) {
    const gain = found[k]! - found[0]!;
    if (clearGain(gain, helped[k]!, hurt[k]!) && gain > bestGain + 1e-9) {
      best = k;
      bestGain = gain;
    }
  }
  return { weight: FIELD_WEIGHTS[best]!, replayed, recall, helped, hurt };
}

/** The field's scores of a replayed search as if that search had not been logged (leave-one-out). */
function heldField(field: LearnedField, replay: Replay): FieldReplay {
  const { search, fieldLexical, weight, unconfirmed } = replay;
  const tools = new Set<number>();
  const dropped = new Map<number, ReadonlySet<number>>();
  for (const name of search.tools) {
    const id = field.toolId(name);
    if (id === undefined) continue;
    tools.add(id);
    const ids = unconfirmed.get(name);
    if (ids) dropped.set(id, new Set(ids));
  }
  const terms = field.termIdsOf(search.terms);
  const scores = field.score(terms, { terms, tools, weight, dropped });
  return { field, tools: scores.tools, scores: scores.scores, lexical: fieldLexical };
}

/** The kNN channel's replay: how many replayed searches it helped and hurt, and whether to use it. */
export interface ChannelVerdict {
  readonly helped: number;
  readonly hurt: number;
  /** False once enough searches were replayed, unless it clearly helped (as the field's bar). */
  readonly on: boolean;
}

/** Below this many replayed searches the kNN channel stays on: a young log's repeats are its use. */
export const MIN_CHANNEL_REPLAYS = 20;

/**
 * Replays the kNN channel (each search held out of it) fused as the query path fuses it: over the
 * lexical list while the field is off, kept on while the log is young or where it clearly helps
 * (the field's bar), off (and free) otherwise; with the field on (`field`: it and its weight), over
 * the field's list, on only where it clearly helps there too. The field reads each intent's words;
 * the channel reads whole past searches like this one, and brings the tools they led to together
 * (a task that needed three tools needs them again when it comes back in other words).
 */
export function judgeChannel(
  channel: LearnedChannel,
  replays: readonly Replay[],
  fusion: LearnedFusionOptions,
  field?: { readonly field: LearnedField; readonly weight: number },
): ChannelVerdict {
  let helped = 0;
  let hurt = 0;
  for (const replay of replays) {
    const { search, gold, weight } = replay;
    const matches = channel.matchTerms(search.terms, { key: search.terms.join(' '), weight });
    if (matches.length === 0) continue;
    const list = field ? fieldRanking(replay.lexical, heldField(field.field, replay), field.weight) : replay.lexical;
    const base = hits(
      list.slice(0, REPLAY_CUT).map((r) => r.name),
      gold,
    );
    const fused = hits(
      fuseLearned(list, matches, REPLAY_CUT, fusion).map((h) => h.name),
      gold,
    );
    if (fused > base) helped++;
    else if (fused < base) hurt++;
  }
  const young = field === undefined && replays.length < MIN_CHANNEL_REPLAYS;
  return { helped, hurt, on: young || clearGain(helped - hurt, helped, hurt) };
}

function hits(names: readonly string[], gold: ReadonlySet<string>): number {
  let n = 0;
  for (const name of names) if (gold.has(name)) n++;
  return n;
}

/**
 * A gain (in tools found) is clear when it is at least `MIN_GAIN` and, like a sign test, at least
 * `Z` standard deviations of the searches it changed (each one a coin flip if the field were noise):
 * a few lucky replays on a small log do not turn the field on.
 */
function clearGain(gain: number, helped: number, hurt: number): boolean {
  return gain > 0 && helped - hurt >= MIN_GAIN && helped - hurt >= Z * Math.sqrt(helped + hurt);
}

const MIN_GAIN = 2;
const Z = 2;

/** A held-out search's field scores, with the lexical scores of the field's tools when known. */
interface FieldReplay {
  readonly field: LearnedField;
  readonly tools: ArrayLike<number>;
  readonly scores: Float64Array;
  readonly lexical: ReadonlyMap<number, number> | undefined;
}

/**
 * lexical + weight × field (both over the top lexical score), best first, as the query path fuses
 * them (fuse-field.ts): a field tool's own lexical score where the ranker kept it, else its place
 * in the lexical list.
 */
function fieldRanking(lexical: readonly RankedTool[], replay: FieldReplay, weight: number): RankedTool[] {
  const { field, tools, scores, lexical: lexicalOf } = replay;
  const top = lexical[0]?.score ?? 0;
  const unit = top > 0 ? top : 1;
  const scored = new Map<string, number>();
  for (const hit of lexical) scored.set(hit.name, hit.score / unit);
  if (weight > 0)
    for (let i = 0; i < tools.length; i++) {
      const d = tools[i]!;
      const name = field.toolNames[d]!;
      const own = lexicalOf ? (lexicalOf.get(d) ?? 0) / unit : (scored.get(name) ?? 0);
      scored.set(name, own + (weight * scores[d]!) / unit);
    }
  return [...scored].map(([name, score]) => ({ name, score })).sort((a, b) => b.score - a.score);
}

/** Share of `gold` in the top `REPLAY_CUT` of `fieldRanking`. */
function recallAt(
  lexical: readonly RankedTool[],
  replay: FieldReplay,
  weight: number,
  gold: ReadonlySet<string>,
): number {
  const ranked = fieldRanking(lexical, replay, weight);
  let found = 0;
  for (let i = 0; i < Math.min(REPLAY_CUT, ranked.length); i++) if (gold.has(ranked[i]!.name)) found++;
  return found / gold.size;
}
