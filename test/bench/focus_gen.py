# focus_gen.py N OUT [SAMPLE]: a FOCUS file of N data lines for the benchmark: the FOCUS 1.0 sample repeated, each copy's ResourceId made distinct (so every line is a new charge)
import csv, sys
n, out = int(sys.argv[1]), sys.argv[2]
rows = list(csv.reader(open(sys.argv[3] if len(sys.argv) > 3 else 'test/data/focus/focus_1.0_sample_1000.csv')))
h, data = rows[0], rows[1:]
ri = h.index('ResourceId')
with open(out, 'w', newline='') as f:
    w = csv.writer(f, quoting=csv.QUOTE_MINIMAL, lineterminator='\n')
    w.writerow(h)
    for i in range(n):
        r = list(data[i % len(data)])
        k = i // len(data)
        if k:
            r[ri] = (r[ri] if r[ri] != 'NULL' else 'r') + '#' + str(k)
        w.writerow(r)
