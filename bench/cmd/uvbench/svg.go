package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
)

// SVG is ratios.svg: for every row with a comparison, uvgo's median time over Node's and over
// libuv's, as bars from parity (1) on a log2 axis — left of 1 uvgo is faster — with a line at
// the Node goal (1/3).
func (rep *Report) SVG() []byte {
	type bar struct {
		label string
		v     float64
		ok    bool
	}
	type row struct {
		label      string
		behind     bool
		node, uvlb bar
	}
	var rows []row
	lo, hi := 1.0/16, 4.0
	for _, r := range rep.Results {
		if r.V == nil {
			continue
		}
		vn, vc, okN, okC := r.Ratios()
		if !okN && !okC {
			continue
		}
		rows = append(rows, row{label: r.Label(), behind: r.Behind(), node: bar{"node", vn, okN}, uvlb: bar{"libuv", vc, okC}})
		for _, x := range []bar{{v: vn, ok: okN}, {v: vc, ok: okC}} {
			if x.ok && x.v > 0 {
				lo, hi = math.Min(lo, x.v), math.Max(hi, x.v)
			}
		}
	}
	// The axis spans whole powers of two.
	pLo, pHi := math.Floor(math.Log2(lo))-1, math.Ceil(math.Log2(hi)) // one spare power left for the labels

	const (
		left, right, top, bottom = 310.0, 70.0, 70.0, 50.0
		plotW                    = 600.0
		barH, rowGap             = 11.0, 12.0
		colNode, colLibuv        = "#3b75af", "#ef8636"
	)
	rowH := 2*barH + rowGap
	plotH := math.Max(float64(len(rows))*rowH, rowH)
	w, h := left+plotW+right, top+plotH+bottom
	x := func(v float64) float64 { return left + (math.Log2(v)-pLo)/(pHi-pLo)*plotW }

	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="22" font-size="15" font-weight="bold">uvgo's cost / the other runtime's (median time; memory for idle-connections; &lt; 1: uvgo better)</text>`+"\n", 10.0)
	// Legend.
	lx := 10.0
	fmt.Fprintf(&b, `<rect x="%.0f" y="36" width="12" height="12" fill="%s"/><text x="%.0f" y="46">uvgo / node</text>`+"\n", lx, colNode, lx+16)
	fmt.Fprintf(&b, `<rect x="%.0f" y="36" width="12" height="12" fill="%s"/><text x="%.0f" y="46">uvgo / libuv (C)</text>`+"\n", lx+110, colLibuv, lx+126)
	fmt.Fprintf(&b, `<line x1="%.0f" y1="42" x2="%.0f" y2="42" stroke="#2a2" stroke-width="2" stroke-dasharray="5,3"/><text x="%.0f" y="46">goal vs node (1/3); vs libuv: 1</text>`+"\n", lx+250, lx+275, lx+280)

	// Grid and axis.
	for p := pLo; p <= pHi; p++ {
		v := math.Exp2(p)
		gx := x(v)
		stroke, sw := "#ddd", 1.0
		if p == 0 {
			stroke, sw = "#333", 1.5
		}
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="%s" stroke-width="%.1f"/>`+"\n", gx, top-6, gx, top+plotH, stroke, sw)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle" fill="#444">%s</text>`+"\n", gx, top+plotH+18, powLabel(p))
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle" fill="#444">ratio (log scale)</text>`+"\n", left+plotW/2, top+plotH+38)
	gx := x(1.0 / 3)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#2a2" stroke-width="2" stroke-dasharray="5,3"/>`+"\n", gx, top-6, gx, top+plotH)

	for i, r := range rows {
		y := top + float64(i)*rowH + rowGap/2
		label, fill := r.label, "#000"
		if r.behind {
			label, fill = label+" — behind goal", "#c00"
		}
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end" fill="%s">%s</text>`+"\n", left-8, y+barH+4, fill, esc(label))
		for j, br := range []bar{r.node, r.uvlb} {
			by := y + float64(j)*barH
			col := colNode
			if j == 1 {
				col = colLibuv
			}
			if !br.ok {
				continue
			}
			x0, x1 := x(1), x(br.v)
			if x1 < x0 {
				x0, x1 = x1, x0
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: uvgo/%s = %s</title></rect>`+"\n",
				x0, by, math.Max(x1-x0, 1), barH-1, col, esc(r.label), br.label, fmtRatio(br.v))
			tx, anchor := x(br.v)-4, "end"
			if br.v > 1 {
				tx, anchor = x(br.v)+4, "start"
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="%s" font-size="10" stroke="white" stroke-width="3" paint-order="stroke">%s</text>`+"\n", tx, by+barH-2, anchor, fmtRatio(br.v))
		}
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// powLabel is 2^p as "1/8", "1", "4".
func powLabel(p float64) string {
	if p >= 0 {
		return fmt.Sprintf("%.0f", math.Exp2(p))
	}
	return fmt.Sprintf("1/%.0f", math.Exp2(-p))
}

func esc(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// PhaseSVG is phases.svg: for every row of the phase report, the median ns per callback
// with 100 callbacks per iteration (the iteration amortized) and, beside it, what one
// callback adds to an empty iteration, as bars on a linear axis.
func (rep *Report) PhaseSVG() []byte {
	type row struct {
		label       string
		per100, one float64 // ns; < 0: missing
	}
	empty, emptyOK := nsStat(rep.Phases["PhaseEmpty"])
	var rows []row
	hi := 10.0
	for _, pr := range phaseRows {
		r := row{label: pr.Label, per100: -1, one: -1}
		iterName := pr.Bench + "/iter"
		if pr.Single {
			iterName = pr.Bench
		} else if st, ok := nsStat(rep.Phases[pr.Bench+"/cb100"]); ok {
			r.per100 = st.Med
		}
		if st, ok := nsStat(rep.Phases[iterName]); ok {
			r.one = st.Med
			if emptyOK && pr.Bench != "PhaseEmpty" {
				r.one = math.Max(st.Med-empty.Med, 0)
			}
		}
		hi = math.Max(hi, math.Max(r.per100, r.one))
		rows = append(rows, r)
	}
	// A round top of the axis: 1, 2 or 5 times a power of ten.
	top10 := math.Pow(10, math.Floor(math.Log10(hi)))
	axis := top10
	for _, m := range []float64{1, 2, 5, 10} {
		if axis = m * top10; axis >= hi {
			break
		}
	}
	const (
		left, right, top, bottom = 200.0, 60.0, 70.0, 50.0
		plotW                    = 600.0
		barH, rowGap             = 11.0, 10.0
		col100, colOne           = "#3b75af", "#ef8636"
	)
	rowH := 2*barH + rowGap
	plotH := math.Max(float64(len(rows))*rowH, rowH)
	w, h := left+plotW+right, top+plotH+bottom
	x := func(v float64) float64 { return left + v/axis*plotW }

	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="10" y="22" font-size="15" font-weight="bold">uvgo: what each kind of callback costs (median ns)</text>`+"\n")
	fmt.Fprintf(&b, `<rect x="10" y="36" width="12" height="12" fill="%s"/><text x="26" y="46">per callback, 100 per iteration</text>`+"\n", col100)
	fmt.Fprintf(&b, `<rect x="250" y="36" width="12" height="12" fill="%s"/><text x="266" y="46">1 per iteration, minus the empty iteration (empty iteration: its own time)</text>`+"\n", colOne)
	for i := 0; i <= 5; i++ {
		v := axis * float64(i) / 5
		gx := x(v)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="%s"/>`+"\n", gx, top-6, gx, top+plotH, map[bool]string{true: "#333", false: "#ddd"}[i == 0])
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle" fill="#444">%g</text>`+"\n", gx, top+plotH+18, v)
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle" fill="#444">ns</text>`+"\n", left+plotW/2, top+plotH+38)
	for i, r := range rows {
		y := top + float64(i)*rowH + rowGap/2
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-8, y+barH+4, esc(r.label))
		for j, v := range []float64{r.per100, r.one} {
			if v < 0 {
				continue
			}
			by := y + float64(j)*barH
			col := col100
			if j == 1 {
				col = colOne
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: %.1f ns</title></rect>`+"\n",
				left, by, math.Max(x(v)-left, 1), barH-1, col, esc(r.label), v)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="10">%.1f</text>`+"\n", x(v)+4, by+barH-2, v)
		}
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}
