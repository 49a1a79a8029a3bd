/** Feature counts of one document over dense feature ids. */
export interface SparseCounts {
  readonly ids: Int32Array;
  readonly counts: Float32Array;
}

/** A TF-IDF weighted, L2-normalized document vector. */
export interface WeightedVector {
  readonly ids: Int32Array;
  readonly values: Float32Array;
}

/** Maps feature hashes to dense ids. `intern` grows the vocabulary (training); `lookup` never does. */
export class FeatureVocabulary {
  private readonly idOf = new Map<number, number>();

  /** Number of distinct features seen while interning. */
  get size(): number {
    return this.idOf.size;
  }

  /** Converts counts to dense ids, adding unseen hashes. */
  intern(counts: ReadonlyMap<number, number>): SparseCounts {
    return this.convert(counts, true);
  }

  /** Converts counts to dense ids, dropping hashes never interned. */
  lookup(counts: ReadonlyMap<number, number>): SparseCounts {
    return this.convert(counts, false);
  }

  private convert(counts: ReadonlyMap<number, number>, grow: boolean): SparseCounts {
    const ids = new Int32Array(counts.size);
    const values = new Float32Array(counts.size);
    let kept = 0;
    // Map order is insertion order, so ids come out in a deterministic (first-seen) order.
    for (const [hash, count] of counts) {
      let id = this.idOf.get(hash);
      if (id === undefined && grow) {
        id = this.idOf.size;
        this.idOf.set(hash, id);
      }
      if (id === undefined) continue;
      ids[kept] = id;
      values[kept] = count;
      kept++;
    }
    return { ids: ids.subarray(0, kept), counts: values.subarray(0, kept) };
  }
}

/**
 * Smoothed inverse document frequency over the given documents; features absent from all of them
 * get 0, so a cross-validation fold ignores words only its held-out part contains.
 */
export function inverseDocumentFrequency(docs: readonly SparseCounts[], featureCount: number): Float32Array {
  const df = new Float32Array(featureCount);
  for (const doc of docs) for (const id of doc.ids) df[id] = (df[id] ?? 0) + 1;
  const idf = new Float32Array(featureCount);
  for (let id = 0; id < featureCount; id++) {
    const seen = df[id] ?? 0;
    idf[id] = seen === 0 ? 0 : Math.log((1 + docs.length) / (1 + seen)) + 1;
  }
  return idf;
}

/** Sublinear TF times IDF, L2-normalized; features with zero IDF are dropped. */
export function weigh(doc: SparseCounts, idf: Float32Array): WeightedVector {
  let kept = 0;
  for (const id of doc.ids) if ((idf[id] ?? 0) > 0) kept++;
  const ids = new Int32Array(kept);
  const values = new Float32Array(kept);
  let norm = 0;
  let k = 0;
  for (let i = 0; i < doc.ids.length; i++) {
    const id = doc.ids[i] ?? 0;
    const weight = idf[id] ?? 0;
    if (weight === 0) continue;
    const value = (1 + Math.log(doc.counts[i] ?? 1)) * weight;
    ids[k] = id;
    values[k] = value;
    norm += value * value;
    k++;
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < kept; i++) values[i] = (values[i] ?? 0) * scale;
  return { ids, values };
}
