"""Dev tool (needs ``java``): the table of ``Math.pow`` values where Java and C differ.

Meteor 1.5 computes the fragmentation penalty with ``Math.pow(frag, beta)``; HotSpot's
``Math.pow`` (an x86-64 intrinsic) and C's ``pow`` (``math.pow``) disagree in the last bit for
about one pair in a thousand.  This writes, for β = 0.2 (Meteor 1.5 English ``rank``,
pycocoevalcap's setting) and every fragmentation ``chunks / ((hyp_matches + ref_matches) / 2)``
with ``hyp_matches + ref_matches <= MAX_M2``, the pairs where they differ, with Java's value,
to ``meteor/compat/data/java_pow_b0.2.tsv``.

    python3 tools/make_java_pow_table.py            # runs java; the output is committed
"""

from __future__ import annotations

import math
import struct
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "meteor" / "compat" / "data" / "java_pow_b0.2.tsv"
BETA = 0.2
MAX_M2 = 1200

JAVA = """
import java.io.*;
public class JavaPow {
  public static void main(String[] a) throws Exception {
    BufferedReader r = new BufferedReader(new InputStreamReader(System.in));
    StringBuilder sb = new StringBuilder();
    String l;
    while ((l = r.readLine()) != null) {
      String[] p = l.split(" ");
      double frag = ((double) Integer.parseInt(p[0])) / (((double) Integer.parseInt(p[1])) / 2);
      sb.append(Double.doubleToLongBits(Math.pow(frag, Double.parseDouble(p[2])))).append('\\n');
    }
    System.out.print(sb);
  }
}
"""


def main() -> None:
    pairs = [(c, m2) for m2 in range(2, MAX_M2 + 1) for c in range(1, m2 // 2 + 1)]
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "JavaPow.java"
        src.write_text(JAVA, encoding="utf-8")
        out = subprocess.run(
            ["java", str(src)],
            input="".join(f"{c} {m2} {BETA!r}\n" for c, m2 in pairs),
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        version = subprocess.run(
            ["java", "-version"], capture_output=True, text=True, check=True
        ).stderr.splitlines()[0]
    rows = []
    for (c, m2), bits in zip(pairs, out, strict=True):
        java = struct.unpack("<d", struct.pack("<q", int(bits)))[0]  # the double Java computed
        if java != math.pow(c / (m2 / 2), BETA):
            rows.append(f"{c}\t{m2}\t{java.hex()}")
    OUT.write_text(
        f"# Math.pow(chunks / (m2 / 2), {BETA}) where Java differs from C pow; m2 <= {MAX_M2}\n"
        f"# {version}; tools/make_java_pow_table.py\n" + "\n".join(rows) + "\n",
        encoding="utf-8",
    )
    print(f"{len(rows)} of {len(pairs)} pairs differ -> {OUT}")


if __name__ == "__main__":
    main()
