import { shippedThesaurus } from '../src/search/thesaurus.js';
import { stem } from '../src/search/vocabulary.js';
const t = shippedThesaurus();
for (const w of process.argv.slice(2)) console.log(w, stem(w), JSON.stringify(t.get(stem(w))?.slice(0, 8).map(n => `${n.term}:${n.similarity.toFixed(2)}`)));
