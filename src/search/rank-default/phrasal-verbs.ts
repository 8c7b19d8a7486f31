/**
 * C14 — English phrasal verbs: a verb and a particle that together mean another action. "Pull up
 * the README" reads it (not git pull), "get rid of the monitor" deletes it, "set up a recurring
 * 1:1" creates one; "push the standup to 10:30" is no phrasal verb and stays. General English,
 * written from what the pairs mean, not from any request set.
 */
import { stem } from '../vocabulary.js';

/**
 * Each row: the verb's forms, its particles, and the stems the pair stands for. A pronoun may sit
 * between them ("pull it up", "set one up", "throw them away").
 */
const PHRASAL_VERBS: readonly (readonly [forms: string, particles: string, senses: string])[] = [
  ['pull pulls pulled pulling', 'up', 'show read get'],
  ['bring brings brought bringing', 'up', 'show read get'],
  ['look looks looked looking', 'up', 'search find lookup'],
  ['get gets got getting', 'rid', 'delete remove'],
  ['throw throws threw thrown throwing', 'away out', 'delete remove'],
  ['take takes took taken taking', 'off out down', 'remove delete'],
  ['take takes took taken taking', 'back', 'undo reset revert'],
  ['set sets setting', 'up', 'create'],
  ['put puts putting', 'back', 'restore revert'],
  ['fill fills filled filling', 'in out', 'fill'],
  ['turn turns turned turning', 'into', 'convert'],
  ['find finds found finding', 'out', 'get'],
  ['shut shuts shutting', 'down off', 'close stop'],
  ['turn turns turned turning', 'off', 'disable stop close'],
  ['turn turns turned turning', 'on', 'enable'],
  ['kick kicks kicked kicking', 'off', 'start run'],
  ['fire fires fired firing spin spins spun spinning', 'up', 'start run'],
  ['clean cleans cleaned cleaning', 'up', 'clean delete'],
  ['back backs backed backing', 'up', 'backup copy'],
  ['log logs logged logging sign signs signed signing', 'in into', 'login sign'],
  ['sign signs signed signing', 'up', 'register create'],
  ['hand hands handed handing', 'over off', 'assign'],
  ['write writes wrote written writing jot jots jotted note notes noted', 'down', 'note save store'],
  ['go goes went going', 'back', 'back'],
  ['wipe wipes wiped wiping', 'out', 'delete clear'],
  ['tear tears tore torn tearing', 'down', 'delete stop'],
  ['sum sums summed summing', 'up', 'summarize'],
];

/** Words that may sit between a verb and its particle. */
const PARTICLE_GAP = new Set([
  'it',
  'them',
  'one',
  'this',
  'that',
  'these',
  'those',
  'him',
  'her',
  'everything',
  'all',
]);

/** form → (particle → sense stems), built once. */
const PHRASAL: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>> = (() => {
  const out = new Map<string, Map<string, string[]>>();
  for (const [forms, particles, senses] of PHRASAL_VERBS)
    for (const form of forms.split(' ')) {
      let byParticle = out.get(form);
      if (!byParticle) out.set(form, (byParticle = new Map()));
      for (const particle of particles.split(' ')) byParticle.set(particle, senses.split(' ').map(stem));
    }
  return out;
})();

/** One phrasal verb found in a request: its verb's and particle's stems, and what the pair means. */
export interface PhrasalSense {
  readonly phrase: string;
  /** Positions in the request's words of the verb and of its particle. */
  readonly at: readonly [verb: number, particle: number];
  readonly words: readonly string[];
  readonly senses: readonly string[];
}

/** C14: the phrasal verbs of a request (`raw`, its lowercase words), in order. */
export function phrasalSenses(raw: readonly string[]): PhrasalSense[] {
  const out: PhrasalSense[] = [];
  for (let i = 0; i + 1 < raw.length; i++) {
    const byParticle = PHRASAL.get(raw[i]!);
    if (!byParticle) continue;
    const gap = PARTICLE_GAP.has(raw[i + 1]!) ? 1 : 0;
    const particle = raw[i + 1 + gap];
    const senses = particle === undefined ? undefined : byParticle.get(particle);
    if (!senses) continue;
    out.push({
      phrase: `${raw[i]} ${particle}`,
      at: [i, i + 1 + gap],
      words: [stem(raw[i]!), stem(particle!)],
      senses,
    });
  }
  return out;
}
