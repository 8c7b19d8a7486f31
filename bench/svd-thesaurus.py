"""EXPERIMENT (issue 12, bench/README.md "SVD"): SVD of the tool-text PPMI matrix as the neighbour
source, instead of cosines of pruned PPMI rows. Not shipped. Needs numpy + scipy.

  THES_DUMP=/tmp/ppmi.json npx tsx bench/build-thesaurus.ts --out /tmp/x.ts
  node --max-old-space-size=8000 --import tsx bench/build-glove-neighbours.ts --glove …json --out /tmp/glove-table.txt
  python3 bench/svd-thesaurus.py 300 /tmp/svd300.txt          # k, output table
  THESAURUS=/tmp/svd300.txt OPTS='{"expansion":{"weight":0.8}}' npx tsx bench/quick.ts

The output has the GloVe fallback appended (×0.5) for words the SVD table lacks, as shipped.
"""
import json, sys, numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.linalg import svds
k=int(sys.argv[1]); p=1.0; out=sys.argv[2]
d=json.load(open('/tmp/ppmi.json')); vocab=d['vocab']; t=np.array(d['trip']).reshape(-1,3)
V=len(vocab)
M=coo_matrix((t[:,2],(t[:,0].astype(int),t[:,1].astype(int))),shape=(V,V)).tocsr()
U,S,Vt=svds(M,k=k)
E=U*(S**p)
E/=np.linalg.norm(E,axis=1,keepdims=True)+1e-12
lines=[]
for i in range(0,V,1000):
    sims=E[i:i+1000]@E.T
    for j in range(sims.shape[0]):
        w=i+j; row=sims[j]; row[w]=-1
        top=np.argpartition(-row,6)[:6]; top=top[np.argsort(-row[top])]
        ns=[(vocab[o],int(round(row[o]*100))) for o in top if row[o]>=0.1]
        if ns: lines.append(vocab[w]+' '+' '.join(f'{a} {b}' for a,b in ns))
# GloVe fallback ×0.5 for missing words
have={l.split(' ')[0] for l in lines}
for l in open('/tmp/glove-table.txt').read().split('\n'):
    q=l.split(' ')
    if q[0] in have: continue
    pairs=[(q[i],int(q[i+1])) for i in range(1,len(q)-1,2)]
    lines.append(q[0]+' '+' '.join(f'{a} {round(b*0.5)}' for a,b in pairs))
open(out,'w').write('\n'.join(lines))
