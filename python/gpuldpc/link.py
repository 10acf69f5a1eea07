#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""A packet link with LDPC-coded payloads, for two radios or a simulated
channel.

Transmitter (packet_link_tx): payload packets (bytes, length-tagged) ->
link_framer (length, sequence number, payload, padding, CRC32 into the k
information bits of one codeword) -> ldpc_encoder -> burst_modulator (Gray
mapping, preamble and pilot symbols, root-raised-cosine pulses) -> one
length-tagged burst of complex samples per packet (the length tag is what
uhd_usrp_sink and the SoapySDR sinks take as burst boundaries).

Receiver (packet_link_rx): complex samples -> matched filter -> burst_sync
(preamble detection, then, from the preamble and pilot symbols of each
burst: frequency, phase, timing and channel, and the noise variance) ->
soft_demapper_cf (LLRs calibrated by each burst's noise estimate) ->
ldpc_decoder (on a GPU when one is usable) -> link_deframer (CRC32, length,
sequence) -> payload PDUs and counters.

The synchronisation is data-aided, burst by burst: at the signal-to-noise
ratios where LDPC codes work (a few dB Es/N0) decision-directed loops (a
Costas loop, a symbol synchroniser) slip, whereas the known symbols of a
burst give maximum-likelihood estimates whatever the SNR. Burst layout, in
symbols: a preamble of `preamble_len` known QPSK symbols, then the codeword's
data symbols with `pilot_len` known symbols after every `pilot_spacing` data
symbols and after the last. The estimates of a burst:
- start: the preamble's correlation over segments of a quarter of it,
  added without their phases (a frequency offset turns the phase across the
  preamble), normalised to 1 for a noiseless burst; above `threshold`, the
  largest value near the first crossing;
- frequency: the peak of the periodogram of the known symbols' products
  with their conjugates (maximum likelihood for one tone), refined on the
  equalised symbols;
- channel, timing and phase: a fractionally spaced linear equaliser
  (2 * eq_half + 1 taps a sample apart) fitted by least squares to every
  known symbol of the burst (preamble and pilots), its output scaled by the
  inverse of its gain on the known symbols (least squares alone shrinks
  the symbols as noise grows);
- N0: the residual of that fit at the known symbols, divided by their number
  less the taps (unbiased for the least-squares fit).
"""

import zlib

import numpy as np
import pmt
from gnuradio import blocks, filter as grfilter, gr

from .gpuldpc_python import (constellation, ldpc_code, ldpc_decoder, ldpc_encoder,
                             soft_demapper_cf)
from .sim import MODULATIONS, gray_constellation

__all__ = ["MODULATIONS", "link_format", "link_framer", "burst_modulator", "burst_sync",
           "link_deframer", "packet_link_tx", "packet_link_rx", "rrc_taps",
           "known_symbols", "test_payload", "test_packet_source", "energy_gain",
           "channel_noise_voltage", "EXAMPLE_TAPS", "length_tags"]

# A three-path channel (taps a sample apart, unit energy) for simulated twins
EXAMPLE_TAPS = (np.array([1.0, 0.25 + 0.15j, -0.1j]) /
                np.linalg.norm([1.0, 0.25 + 0.15j, -0.1j]))
HEADER_BYTES = 4  # payload length and sequence number, 16 bits each
CRC_BYTES = 4


def known_symbols(count, seed=0x1a5):
    """QPSK symbols of unit energy from a 9-bit LFSR (x^9 + x^5 + 1), two bits
    a symbol: the preamble and pilots, the same on every host."""
    state = seed & 0x1FF or 1
    bits = np.empty(2 * count, dtype=np.int8)
    for i in range(2 * count):
        bit = ((state >> 8) ^ (state >> 4)) & 1
        state = ((state << 1) | bit) & 0x1FF
        bits[i] = bit
    b = bits.reshape(count, 2)
    return ((1 - 2 * b[:, 0]) + 1j * (1 - 2 * b[:, 1])).astype(np.complex64) / np.sqrt(2)


def rrc_taps(sps, rolloff, span):
    """Root-raised-cosine pulse over `span` symbols at `sps` samples a symbol,
    of unit energy (so a matched pair gives the symbol at its sample)."""
    t = (np.arange(span * sps + 1) - span * sps / 2) / sps
    a = rolloff
    h = np.empty_like(t)
    for i, ti in enumerate(t):
        if abs(ti) < 1e-9:
            h[i] = 1 + a * (4 / np.pi - 1)
        elif a > 0 and abs(abs(ti) - 1 / (4 * a)) < 1e-9:
            h[i] = a / np.sqrt(2) * ((1 + 2 / np.pi) * np.sin(np.pi / (4 * a)) +
                                     (1 - 2 / np.pi) * np.cos(np.pi / (4 * a)))
        else:
            h[i] = (np.sin(np.pi * ti * (1 - a)) + 4 * a * ti * np.cos(np.pi * ti * (1 + a))) / (
                np.pi * ti * (1 - (4 * a * ti) ** 2))
    return (h / np.sqrt(np.sum(h ** 2))).astype(np.float32)


class link_format:
    """The frame and burst of the link: what transmitter and receiver MUST
    agree on. No flowgraph code; the blocks below use it.

    code: a binary ldpc_code (or a file, shipped or built-in code's name for
    ldpc_code.load); modulation: bpsk, qpsk, 8psk, 16qam, 64qam or 256qam,
    the module's Gray constellation of that name (gpuldpc-qpsk for qpsk;
    the prefixed names are taken too): m code bits, MSB first, are the label
    of the point they are sent as, the labels soft_demapper_cf takes
    (GNU Radio's constellations of the short names label their points
    otherwise); sps: samples a symbol (>= 2); rolloff: of the
    root-raised-cosine pulse, (0, 1]. The constellation's name is
    `constellation`, the modulation's short name `modulation`."""

    def __init__(self, code, modulation="gpuldpc-qpsk", sps=2, rolloff=0.35, preamble_len=192,
                 pilot_spacing=32, pilot_len=2, guard=64, pulse_span=11):
        if isinstance(code, str):
            code = ldpc_code.load(code)
        if code.q != 2:
            raise ValueError(f"code: GF({code.q}) code; the packet link takes binary codes "
                             "(q = 2)")
        self.code = code
        self.constellation = gray_constellation(modulation)
        self.modulation = self.constellation[len("gpuldpc-"):]
        self.points = np.asarray(constellation(self.constellation).points,
                                 dtype=np.complex64)
        self.m = int(np.log2(len(self.points)))
        if code.n_transmitted % self.m:
            raise ValueError(f"code: {code.n_transmitted} transmitted bits are not a whole "
                             f"number of {modulation} symbols ({self.m} bits each)")
        if code.k // 8 < HEADER_BYTES + CRC_BYTES + 1:
            raise ValueError(f"code: k={code.k} holds no payload byte besides the "
                             f"{HEADER_BYTES + CRC_BYTES}-byte header and CRC")
        for name, value, low in (("sps", sps, 2), ("preamble_len", preamble_len, 16),
                                 ("pilot_spacing", pilot_spacing, 1),
                                 ("pilot_len", pilot_len, 1), ("guard", guard, 0),
                                 ("pulse_span", pulse_span, 2)):
            if int(value) != value or value < low:
                raise ValueError(f"{name}={value}: allowed: an integer >= {low}")
        if not 0 < rolloff <= 1:
            raise ValueError(f"rolloff={rolloff}: allowed: (0, 1]")
        self.sps, self.rolloff, self.guard = int(sps), float(rolloff), int(guard)
        self.preamble_len = int(preamble_len)
        self.k = code.k
        self.n_bits = code.n_transmitted
        self.n_data = self.n_bits // self.m
        self.max_payload = code.k // 8 - HEADER_BYTES - CRC_BYTES

        # symbol layout: preamble, then data with pilots after every
        # pilot_spacing data symbols and after the last
        kind = [1] * self.preamble_len
        for i in range(self.n_data):
            kind.append(0)
            if (i + 1) % pilot_spacing == 0 or i + 1 == self.n_data:
                kind.extend([1] * pilot_len)
        kind = np.array(kind, dtype=np.int8)
        self.n_symbols = len(kind)
        self.known_index = np.flatnonzero(kind == 1)
        self.data_index = np.flatnonzero(kind == 0)
        self.known = known_symbols(len(self.known_index))
        self.preamble = self.known[:self.preamble_len]
        self.pulse = rrc_taps(self.sps, self.rolloff, int(pulse_span))
        self.burst_samples = self.n_symbols * self.sps + len(self.pulse) - 1 + self.guard

    # ---- information bits of a packet
    def frame_bits(self, payload, seq):
        """The k information bits (0/1, uint8) of one packet."""
        payload = bytes(payload)
        if not 1 <= len(payload) <= self.max_payload:
            raise ValueError(f"payload of {len(payload)} bytes; allowed: 1 to "
                             f"{self.max_payload}")
        body = bytearray(self.k // 8 - CRC_BYTES)
        body[0:2] = len(payload).to_bytes(2, "big")
        body[2:4] = (seq & 0xFFFF).to_bytes(2, "big")
        body[4:4 + len(payload)] = payload
        frame = bytes(body) + zlib.crc32(bytes(body)).to_bytes(4, "big")
        bits = np.zeros(self.k, dtype=np.uint8)
        bits[:8 * len(frame)] = np.unpackbits(np.frombuffer(frame, dtype=np.uint8))
        return bits

    def parse_bits(self, bits):
        """(crc_ok, seq, payload) of k decoded information bits."""
        frame = np.packbits(np.asarray(bits[:8 * (self.k // 8)], dtype=np.uint8) & 1).tobytes()
        body, crc = frame[:-CRC_BYTES], frame[-CRC_BYTES:]
        if zlib.crc32(body).to_bytes(4, "big") != crc:
            return False, None, None
        length = int.from_bytes(body[0:2], "big")
        if not 1 <= length <= self.max_payload:
            return False, None, None
        return True, int.from_bytes(body[2:4], "big"), body[4:4 + length]

    # ---- burst of a codeword
    def modulate(self, codeword_bits):
        """Complex baseband samples of one burst (unit symbol energy)."""
        b = np.asarray(codeword_bits, dtype=np.uint8).reshape(self.n_data, self.m) & 1
        labels = (b.astype(np.int64) << np.arange(self.m - 1, -1, -1)).sum(axis=1)
        symbols = np.empty(self.n_symbols, dtype=np.complex64)
        symbols[self.known_index] = self.known
        symbols[self.data_index] = self.points[labels]
        up = np.zeros(self.n_symbols * self.sps, dtype=np.complex64)
        up[::self.sps] = symbols
        burst = np.zeros(self.burst_samples, dtype=np.complex64)
        shaped = np.convolve(up, self.pulse)
        burst[:len(shaped)] = shaped
        return burst


class burst_synchronizer:
    """Finds bursts of a link_format in matched-filtered samples and turns
    each into equalised data symbols and a noise variance (see the module's
    description). No flowgraph code."""

    def __init__(self, fmt, threshold=0.2, eq_half=2, segments=4):
        if not 0 < threshold < 1:
            raise ValueError(f"threshold={threshold}: allowed: (0, 1)")
        self.fmt, self.threshold, self.eq_half = fmt, float(threshold), int(eq_half)
        self.taps = 2 * self.eq_half + 1
        # the last burst of a stream is found only with this much after it
        if fmt.guard < 2 * fmt.sps + self.eq_half + 1:
            raise ValueError(f"guard={fmt.guard}: the receiver needs at least "
                             f"{2 * fmt.sps + self.eq_half + 1} samples after a burst "
                             f"(2 * sps + eq_half + 1)")
        if len(fmt.known_index) < 2 * self.taps:
            raise ValueError("too few known symbols a burst for the equaliser")
        seg = fmt.preamble_len // segments
        self.segment_bounds = [(s * seg, (s + 1) * seg if s + 1 < segments else
                                fmt.preamble_len) for s in range(segments)]
        self.peak_span = 2 * fmt.sps  # the peak lies this close to the first crossing
        # samples a burst needs from its first preamble sample on (and eq_half before)
        self.span = (fmt.n_symbols - 1) * fmt.sps + self.eq_half + 1
        self.fft_size = 1 << int(np.ceil(np.log2(8 * fmt.n_symbols)))

    def metric(self, r, starts):
        """Normalised preamble correlation for start samples 0 .. starts-1 of r
        (r MUST hold starts + (preamble_len - 1) * sps samples)."""
        sps = self.fmt.sps
        out = np.zeros(starts, dtype=np.float64)
        p = self.fmt.preamble
        for phase in range(sps):
            rs = r[phase::sps]
            count = (starts - phase + sps - 1) // sps  # starts of this phase
            if count <= 0:
                continue
            num = np.zeros(count)
            den = np.zeros(count)
            power = np.concatenate(([0.0], np.cumsum(np.abs(rs.astype(np.complex128)) ** 2)))
            for a, b in self.segment_bounds:
                c = np.correlate(rs[a:a + count + (b - a) - 1], p[a:b], "valid")[:count]
                num += np.abs(c) ** 2
                den += (b - a) * (power[b:b + count] - power[a:a + count])
            out[phase::sps][:count] = num / np.maximum(den, 1e-30)
        return out

    def find(self, r):
        """Start sample of the first burst in r whose whole span r holds, or
        (None, first sample that may still start one)."""
        sps, h = self.fmt.sps, self.eq_half
        L = self.fmt.preamble_len
        starts = len(r) - max(self.span, (L - 1) * sps + 1) + 1
        if starts <= h:
            return None, 0
        m = self.metric(r[:starts + (L - 1) * sps], starts)
        m[:h] = 0  # the equaliser needs h samples before the start
        above = np.flatnonzero(m > self.threshold)
        if above.size == 0:
            return None, starts
        first = int(above[0])
        if first + self.peak_span >= starts:
            return None, first  # wait until the peak's neighbourhood is in
        return first + int(np.argmax(m[first:first + self.peak_span + 1])), None

    def _frequency(self, z, index):
        """Maximum-likelihood frequency (cycles a symbol) of z at symbol indices."""
        n = self.fft_size
        grid = np.zeros(n, dtype=np.complex128)
        grid[index] = z
        spec = np.abs(np.fft.fft(grid))
        b = int(np.argmax(spec))
        y0, y1, y2 = spec[b - 1], spec[b], spec[(b + 1) % n]
        denom = y0 - 2 * y1 + y2
        delta = 0.5 * (y0 - y2) / denom if denom != 0 else 0.0
        f = (b + delta) / n
        return f - 1.0 if f >= 0.5 else f

    def _equalise(self, r, start, freq):
        """Equalised symbols of the burst and the least-squares residual."""
        fmt, h = self.fmt, self.eq_half
        seg = r[start - h:start + (fmt.n_symbols - 1) * fmt.sps + h + 1].astype(np.complex128)
        t = (np.arange(len(seg)) - h) / fmt.sps
        seg = seg * np.exp(-2j * np.pi * freq * t)
        windows = np.lib.stride_tricks.sliding_window_view(seg, self.taps)[::fmt.sps]
        windows = windows[:fmt.n_symbols]
        a = windows[fmt.known_index]
        w, *_ = np.linalg.lstsq(a, fmt.known.astype(np.complex128), rcond=None)
        y = windows @ w
        # least squares shrinks its output towards 0 as noise grows (by
        # SNR / (1 + SNR) for one tap): scaled back, the symbols are unbiased
        # and the demapper's points and N0 apply
        known = fmt.known.astype(np.complex128)
        gain = np.vdot(known, y[fmt.known_index]) / np.vdot(known, known)
        y = y / gain if abs(gain) > 1e-12 else y
        residual = float(np.sum(np.abs(y[fmt.known_index] - known) ** 2))
        return y, residual

    def demodulate(self, r, start):
        """(data symbols, N0, frequency offset in cycles a sample) of the burst
        whose first preamble sample is r[start]; None when its samples hold a
        NaN or an infinity (or the fit fails)."""
        if not np.all(np.isfinite(r[start - self.eq_half:start + self.span])):
            return None
        try:
            return self._demodulate(r, start)
        except np.linalg.LinAlgError:
            return None

    def _demodulate(self, r, start):
        fmt = self.fmt
        k = fmt.known_index
        z = r[start + k * fmt.sps].astype(np.complex128) * np.conj(fmt.known)
        freq = self._frequency(z, k)
        y, _ = self._equalise(r, start, freq)
        freq += self._frequency(y[k] * np.conj(fmt.known), k)
        y, residual = self._equalise(r, start, freq)
        n0 = max(residual / (len(k) - self.taps), 1e-12)
        return y[fmt.data_index].astype(np.complex64), n0, freq / fmt.sps


def energy_gain(taps, pulse):
    """Symbol energy after a channel of taps a sample apart relative to before,
    for pulses of unit energy (sample-spaced taps add coherently in band)."""
    taps = np.asarray(taps, dtype=np.complex128)
    r = np.correlate(pulse, pulse, "full")
    c = len(pulse) - 1
    return float(sum((taps[i] * np.conj(taps[j]) * r[c + i - j]).real
                     for i in range(len(taps)) for j in range(len(taps))))


def channel_noise_voltage(fmt, esn0_db, amplitude=0.5, taps=(1.0,)):
    """noise_voltage of channels.channel_model (E|n|^2 = its square) for
    Es/N0 = esn0_db at the receiver's input: the symbol energy after the
    taps of bursts sent at `amplitude`, over N0."""
    es = amplitude ** 2 * energy_gain(taps, fmt.pulse)
    return float(np.sqrt(es * 10 ** (-esn0_db / 10)))


def length_tags(lengths, key="packet_len"):
    """Length tags for packets of these lengths back to back (for a
    vector_source_b feeding packet_link_tx)."""
    tags, at = [], 0
    for n in lengths:
        tags.append(gr.python_to_tag((at, pmt.intern(key), pmt.from_long(int(n)),
                                      pmt.PMT_F)))
        at += int(n)
    return tags


def _long(value):
    return pmt.from_long(int(value))


class link_framer(gr.basic_block):
    """Payload packets (bytes, length-tagged, 1 to max_payload bytes) to the
    k information bits of a codeword each (length, sequence number, payload,
    zero padding, CRC32). A packet of another length is counted
    (bad_packets) and skipped; bytes outside a packet are counted
    (untagged_bytes)."""

    def __init__(self, fmt, length_tag_key="packet_len"):
        gr.basic_block.__init__(self, name="gpuldpc link_framer", in_sig=[np.uint8],
                                out_sig=[np.uint8])
        self.fmt = fmt
        self.key = pmt.intern(length_tag_key)
        self.set_tag_propagation_policy(gr.TPP_DONT)
        self.set_output_multiple(fmt.k)
        self.seq = 0
        self.packets = 0
        self.bad_packets = 0
        self.untagged_bytes = 0
        self._skip = 0  # bytes of a bad packet still to skip
        self._need = 1  # items the waiting packet needs (the scheduler waits)

    def forecast(self, noutput_items, ninputs):
        return [self._need] * ninputs

    def general_work(self, input_items, output_items):
        inp, out = input_items[0], output_items[0]
        n_in, start = len(inp), self.nitems_read(0)
        if self._skip:
            used = min(self._skip, n_in)
            self._skip -= used
            self.consume(0, used)
            return 0
        tags = self.get_tags_in_window(0, 0, n_in, self.key)
        if not tags or tags[0].offset != start:
            used = (tags[0].offset - start) if tags else n_in
            self.untagged_bytes += used
            self.consume(0, used)
            return 0
        try:
            length = pmt.to_long(tags[0].value)
        except Exception:  # noqa: BLE001 - any PMT that is not an integer
            length = -1
        if not 1 <= length <= self.fmt.max_payload:
            self.bad_packets += 1
            if length > 0:
                self._skip = length
                return 0
            self.consume(0, 1)  # a tag of no length: count it, drop its item
            return 0
        if n_in < length:
            self._need = length  # an incomplete packet at the end is dropped
            return 0
        self._need = 1
        bits = self.fmt.frame_bits(inp[:length].tobytes(), self.seq)
        self.seq = (self.seq + 1) & 0xFFFF
        self.packets += 1
        out[:self.fmt.k] = bits
        self.add_item_tag(0, self.nitems_written(0), self.key, _long(self.fmt.k))
        self.consume(0, length)
        return self.fmt.k


class burst_modulator(gr.basic_block):
    """Codewords (n_transmitted bits a frame, one per byte) to bursts of
    complex samples, each tagged with its length."""

    def __init__(self, fmt, length_tag_key="packet_len"):
        gr.basic_block.__init__(self, name="gpuldpc burst_modulator", in_sig=[np.uint8],
                                out_sig=[np.complex64])
        self.fmt = fmt
        self.key = pmt.intern(length_tag_key)
        self.set_tag_propagation_policy(gr.TPP_DONT)
        self.set_output_multiple(fmt.burst_samples)
        self.bursts = 0

    def forecast(self, noutput_items, ninputs):
        frames = max(1, noutput_items // self.fmt.burst_samples)
        return [frames * self.fmt.n_bits] * ninputs

    def general_work(self, input_items, output_items):
        inp, out = input_items[0], output_items[0]
        fmt = self.fmt
        frames = min(len(inp) // fmt.n_bits, len(out) // fmt.burst_samples)
        for f in range(frames):
            at = f * fmt.burst_samples
            out[at:at + fmt.burst_samples] = fmt.modulate(inp[f * fmt.n_bits:(f + 1) * fmt.n_bits])
            self.add_item_tag(0, self.nitems_written(0) + at, self.key,
                              _long(fmt.burst_samples))
        self.bursts += frames
        self.consume(0, frames * fmt.n_bits)
        return frames * fmt.burst_samples


class burst_sync(gr.basic_block):
    """Matched-filtered complex samples in; for each burst found, its
    n_data equalised data symbols out, tagged with the length key (n_data),
    "noise_var" (the burst's N0 estimate) and "link_freq_offset" (cycles a
    sample). Counts bursts (detected) and bursts skipped for NaN or infinite
    samples (bad_bursts)."""

    def __init__(self, fmt, threshold=0.2, length_tag_key="packet_len",
                 noise_var_tag_key="noise_var", eq_half=2):
        gr.basic_block.__init__(self, name="gpuldpc burst_sync", in_sig=[np.complex64],
                                out_sig=[np.complex64])
        self.fmt = fmt
        self.sync = burst_synchronizer(fmt, threshold, eq_half)
        self.key = pmt.intern(length_tag_key)
        self.n0_key = pmt.intern(noise_var_tag_key)
        self.freq_key = pmt.intern("link_freq_offset")
        self.set_tag_propagation_policy(gr.TPP_DONT)
        self.set_output_multiple(fmt.n_data)
        # a start, its peak search and the burst after it (the transmitter's
        # guard and pulse tail cover this at the end of a stream)
        self.window = (max(self.sync.span, (fmt.preamble_len - 1) * fmt.sps + 1) +
                       self.sync.peak_span + self.sync.eq_half + 1)
        self.detected = 0
        self.bad_bursts = 0  # bursts with NaN or infinite samples, skipped
        self.last_n0 = float("nan")
        self.last_freq = float("nan")

    def forecast(self, noutput_items, ninputs):
        return [self.window] * ninputs

    def general_work(self, input_items, output_items):
        r, out = input_items[0], output_items[0]
        # a bounded look ahead keeps a call's cost independent of the buffer
        start, resume = self.sync.find(r[:2 * self.window])
        if start is None:
            self.consume(0, max(0, resume - self.sync.eq_half))
            return 0
        burst = self.sync.demodulate(r, start)
        if burst is None:  # non-finite samples: counted, skipped whole
            self.bad_bursts += 1
            self.consume(0, start + (self.fmt.n_symbols - 1) * self.fmt.sps)
            return 0
        symbols, n0, freq = burst
        n = self.fmt.n_data
        out[:n] = symbols
        at = self.nitems_written(0)
        self.add_item_tag(0, at, self.key, _long(n))
        self.add_item_tag(0, at, self.n0_key, pmt.from_double(n0))
        self.add_item_tag(0, at, self.freq_key, pmt.from_double(freq))
        self.detected += 1
        self.last_n0, self.last_freq = n0, freq
        self.consume(0, start + (self.fmt.n_symbols - 1) * self.fmt.sps)
        return n


class link_deframer(gr.basic_block):
    """Decoded information bits (k a frame, one per byte) to payloads: CRC32
    and length checked, sequence numbers followed. Each good payload goes out
    on "pdus" (u8vector, metadata: seq) and is kept (received()) unless
    keep=False; "stats" gets the counters (a dictionary) after every frame."""

    def __init__(self, fmt, keep=True):
        gr.basic_block.__init__(self, name="gpuldpc link_deframer", in_sig=[np.uint8],
                                out_sig=None)
        self.fmt = fmt
        self.keep = keep
        self.message_port_register_out(pmt.intern("pdus"))
        self.message_port_register_out(pmt.intern("stats"))
        self.iter_key = pmt.intern("ldpc_iterations")
        self.frames = 0
        self.decoded = 0
        self.crc_failures = 0
        self.missed = 0
        self.iterations = 0
        self._last_seq = None
        self._failed_since_good = 0
        self._received = []
        self.on_stats = None  # optional callable(dict) after every frame
        self.on_payload = None  # optional callable(seq, bytes) for every good payload

    def forecast(self, noutput_items, ninputs):
        return [self.fmt.k] * ninputs

    def received(self):
        """The good payloads so far, as (seq, bytes)."""
        return list(self._received)

    def stats(self):
        lost = self.crc_failures + self.missed
        total = self.decoded + lost
        return {"frames": self.frames, "decoded": self.decoded,
                "crc_failures": self.crc_failures, "missed": self.missed,
                "frame_error_rate": lost / total if total else 0.0,
                "avg_iterations": self.iterations / self.frames if self.frames else 0.0}

    def general_work(self, input_items, output_items):
        inp = input_items[0]
        k = self.fmt.k
        frames = len(inp) // k
        for f in range(frames):
            tags = self.get_tags_in_window(0, f * k, f * k + 1, self.iter_key)
            if tags:
                self.iterations += pmt.to_long(tags[0].value)
            self.frames += 1
            ok, seq, payload = self.fmt.parse_bits(inp[f * k:(f + 1) * k])
            if not ok:
                self.crc_failures += 1
                self._failed_since_good += 1
            else:
                self.decoded += 1
                if self._last_seq is not None:
                    gap = (seq - self._last_seq - 1) & 0xFFFF
                    # frames that failed their CRC fill part of the gap; a gap
                    # of more than half the sequence space is a repeat or
                    # reordering, not 30000 lost packets
                    if gap < 0x8000:
                        self.missed += max(0, gap - self._failed_since_good)
                self._last_seq = seq
                self._failed_since_good = 0
                if self.keep:
                    self._received.append((seq, payload))
                if self.on_payload:
                    self.on_payload(seq, payload)
                meta = pmt.dict_add(pmt.make_dict(), pmt.intern("seq"), pmt.from_long(seq))
                self.message_port_pub(pmt.intern("pdus"), pmt.cons(
                    meta, pmt.init_u8vector(len(payload), list(payload))))
            self.message_port_pub(pmt.intern("stats"), pmt.to_pmt(self.stats()))
            if self.on_stats:
                self.on_stats(self.stats())
        self.consume(0, frames * k)
        return 0


class packet_link_tx(gr.hier_block2):
    """Transmitter of the packet link: payload packets in (bytes,
    length-tagged, 1 to fmt.max_payload bytes each), one burst of complex
    samples a packet out (length-tagged: the key is what a UHD or SoapySDR
    sink takes as burst boundaries), amplitude `amplitude` at the symbol
    instants."""

    def __init__(self, code, modulation="gpuldpc-qpsk", sps=2, rolloff=0.35, amplitude=0.5,
                 length_tag_key="packet_len", **layout):
        gr.hier_block2.__init__(self, "gpuldpc packet_link_tx",
                                gr.io_signature(1, 1, gr.sizeof_char),
                                gr.io_signature(1, 1, gr.sizeof_gr_complex))
        self.fmt = code if isinstance(code, link_format) else link_format(
            code, modulation, sps, rolloff, **layout)
        self.framer = link_framer(self.fmt, length_tag_key)
        self.encoder = ldpc_encoder(self.fmt.code, input="bits", output="bits",
                                    length_tag_key=length_tag_key)
        self.modulator = burst_modulator(self.fmt, length_tag_key)
        self.scale = blocks.multiply_const_cc(amplitude)
        self.connect(self, self.framer, self.encoder, self.modulator, self.scale, self)


class packet_link_rx(gr.hier_block2):
    """Receiver of the packet link: complex samples in (any amplitude); good
    payloads out on "pdus" (u8vector, metadata: seq), counters on "stats"
    (detected, frames, decoded, crc_failures, missed, frame_error_rate,
    avg_iterations) after every frame; received() and stats() from Python.
    device: of the LDPC decoder (auto: a GPU when one is usable)."""

    def __init__(self, code, modulation="gpuldpc-qpsk", sps=2, rolloff=0.35, device="auto",
                 algorithm="min-sum", schedule="layered", max_iterations=20,
                 threshold=0.2, eq_half=2, keep=True, symbols_out=False, **layout):
        gr.hier_block2.__init__(self, "gpuldpc packet_link_rx",
                                gr.io_signature(1, 1, gr.sizeof_gr_complex),
                                gr.io_signature(1, 1, gr.sizeof_gr_complex) if symbols_out
                                else gr.io_signature(0, 0, 0))
        self.fmt = code if isinstance(code, link_format) else link_format(
            code, modulation, sps, rolloff, **layout)
        fmt = self.fmt
        self.message_port_register_hier_out("pdus")
        self.message_port_register_hier_out("stats")
        self.matched = grfilter.fir_filter_ccf(1, fmt.pulse.tolist())
        self.sync = burst_sync(fmt, threshold, eq_half=eq_half)
        # the synchroniser looks at a whole burst at a time
        self.matched.set_min_output_buffer(4 * self.sync.window)
        self.demapper = soft_demapper_cf(fmt.constellation, "exact", 1.0, "noise_var",
                                         device)
        self.lengths = blocks.tagged_stream_multiply_length(gr.sizeof_float, "packet_len",
                                                            fmt.m)
        self.decoder = ldpc_decoder(fmt.code, algorithm=algorithm, schedule=schedule,
                                    max_iterations=max_iterations, output="bits",
                                    device=device)
        self.deframer = link_deframer(fmt, keep)
        self.connect(self, self.matched, self.sync, self.demapper, self.lengths,
                     self.decoder, self.deframer)
        if symbols_out:  # the equalised data symbols, e.g. for a constellation plot
            self.connect(self.sync, self)
        self.msg_connect(self.deframer, "pdus", self, "pdus")
        self.msg_connect(self.deframer, "stats", self, "stats")

    def received(self):
        return self.deframer.received()

    def stats(self):
        s = self.deframer.stats()
        s["detected"] = self.sync.detected
        s["bad_bursts"] = self.sync.bad_bursts
        s["device"] = self.decoder.device_name()
        return s

    def stats_text(self):
        """The counters in one line (for a Function Probe and a QT GUI Label)."""
        s = self.stats()
        n0 = self.sync.last_n0
        snr = f"{-10 * np.log10(n0):.1f} dB" if n0 == n0 and n0 > 0 else "-"
        return (f"{s['detected']} detected, {s['decoded']} decoded, {s['crc_failures']} CRC "
                f"failures, {s['missed']} missed, FER {s['frame_error_rate']:.2e}, "
                f"{s['avg_iterations']:.1f} iterations, last Es/N0 {snr}, "
                f"decoder {s['device']}")


def test_payload(seq, size):
    """The bytes of numbered test packet `seq` (a receiver can check them);
    packet n carries test_payload(n % 65536), its 16-bit sequence number."""
    return np.random.default_rng(seq).integers(0, 256, size, dtype=np.uint8).tobytes()


class test_packet_source(gr.basic_block):
    """Numbered test packets (test_payload(0), test_payload(1), ...) of `size`
    bytes as a length-tagged byte stream; `packets` of them, 0 for no end."""

    def __init__(self, size, packets=0, length_tag_key="packet_len"):
        gr.basic_block.__init__(self, name="gpuldpc test_packet_source", in_sig=None,
                                out_sig=[np.uint8])
        if int(size) != size or size < 1:
            raise ValueError(f"size={size}: allowed: an integer >= 1")
        self.size, self.packets = int(size), int(packets)
        self.key = pmt.intern(length_tag_key)
        self.set_output_multiple(self.size)
        self.sent = 0

    def general_work(self, input_items, output_items):
        if self.packets and self.sent >= self.packets:
            return -1  # done
        out = output_items[0]
        count = len(out) // self.size
        if self.packets:
            count = min(count, self.packets - self.sent)
        for i in range(count):
            out[i * self.size:(i + 1) * self.size] = np.frombuffer(
                test_payload((self.sent + i) & 0xFFFF, self.size), dtype=np.uint8)
            self.add_item_tag(0, self.nitems_written(0) + i * self.size, self.key,
                              _long(self.size))
        self.sent += count
        return count * self.size
