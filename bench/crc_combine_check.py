#!/usr/bin/env python3
"""The algebra for a CRC with no CRC kernel of its own (a lead, docs/DESIGN.md "The CRC's idle
blocks"): the writers of a stream's pieces (the Huffman coders' segments, the segment table,
anchors, outliers, the header) could each xor R(piece) * x^(-8 * end) into one word, whatever the
order and before the stream's length n is known, and whoever finishes last would take
crc = ~(x^(8n) * (0xFFFFFFFF ^ that word)). R is the raw CRC (register 0, no final xor); products
are mod zlib's polynomial in its reflected form; x^-1 exists because the polynomial's constant
term is 1. Checked here against zlib.crc32 on random buffers cut at random places, pieces taken in
random order.
    python3 bench/crc_combine_check.py
"""
import zlib, random
P = 0xEDB88320  # zlib's polynomial, reflected: bit 31 is x^0
ONE = 0x80000000


def mul(a, b):
    """a * b mod P (bit-serial)"""
    p=0
    for i in range(32):
        if a & 0x80000000: p^=b
        a=(a<<1)&0xFFFFFFFF
        b=(b>>1)^(P if b&1 else 0)
    return p


def powx(e, base):
    """base^e mod P"""
    r=ONE; b=base
    while e:
        if e&1: r=mul(r,b)
        b=mul(b,b); e>>=1
    return r


X = ONE >> 1  # x
XINV = ((P & 0x7FFFFFFF) << 1) | 1  # (P(x) - 1) / x: x * XINV = P(x) - (P(x) - 1) = 1 mod P
assert mul(X,XINV)==ONE, hex(XINV)
X8=ONE>>8; X8INV=powx(8,XINV)


def raw(b):
    """raw CRC: register 0, no final xor"""
    c=0
    for byte in b:
        c^=byte
        for _ in range(8): c=(c>>1)^(P if c&1 else 0)
    return c
random.seed(1)
for t in range(200):
    n=random.randint(0,3000); M=bytes(random.getrandbits(8) for _ in range(n))
    cuts=sorted(random.sample(range(n+1), min(n+1,random.randint(0,6))))
    cuts=[0]+[c for c in cuts if 0<c<n]+[n]
    acc=0
    pieces=list(zip(cuts,cuts[1:]))
    random.shuffle(pieces)              # any order: xor commutes
    for lo,hi in pieces:
        acc^=mul(raw(M[lo:hi]), powx(hi,X8INV))   # R(piece) * x^(-8 end)
    crc=(~mul(powx(n,X8), acc ^ 0xFFFFFFFF)) & 0xFFFFFFFF
    assert crc==zlib.crc32(M), (n,hex(crc),hex(zlib.crc32(M)))
print("x^-1 (reflected) = %#010x; 200 random buffers: crc = ~(x^(8n) * (0xFFFFFFFF ^ sum R(piece) * x^(-8 end))) holds" % XINV)
