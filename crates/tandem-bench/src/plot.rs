//! The benchmark figures, as SVG (plotters): server work per NF, and fast-path share
//! against flow size. One panel per workload.

use std::path::Path;

use plotters::prelude::*;

use crate::{BenchError, BenchResult};

fn err(e: impl std::fmt::Display) -> BenchError {
    BenchError::Plot(e.to_string())
}

/// The workloads of `results`, in first-seen order, with their results.
fn by_workload(results: &[BenchResult]) -> Vec<(String, Vec<&BenchResult>)> {
    let mut out: Vec<(String, Vec<&BenchResult>)> = Vec::new();
    for r in results {
        match out.iter_mut().find(|(w, _)| *w == r.workload) {
            Some((_, v)) => v.push(r),
            None => out.push((r.workload.clone(), vec![r])),
        }
    }
    out
}

/// An axis label: integers without decimals.
fn number(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

type Panel<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// One SVG at `path` with a panel per workload, side by side; `draw` fills each.
fn per_workload(
    results: &[BenchResult],
    path: &Path,
    mut draw: impl FnMut(&str, &[&BenchResult], &Panel) -> Result<(), BenchError>,
) -> Result<(), BenchError> {
    let groups = by_workload(results);
    let width = 520 * groups.len().max(1) as u32;
    let root = SVGBackend::new(path, (width, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let panels = root.split_evenly((1, groups.len().max(1)));
    for ((workload, rs), panel) in groups.iter().zip(panels.iter()) {
        draw(workload, rs, panel)?;
    }
    root.present().map_err(err)
}

const BASE: RGBColor = RGBColor(150, 150, 150);
const OFFL: RGBColor = RGBColor(31, 119, 180);
/// Where a zero sits on a log axis.
const FLOOR: f64 = 0.1;

/// Bar chart: instructions per input packet, the baseline host vs the offloaded server,
/// per NF (log scale; a server that did no work is drawn at the floor and labelled 0).
pub fn server_work(results: &[BenchResult], path: &Path) -> Result<(), BenchError> {
    per_workload(results, path, |workload, rs, panel| {
        let vals: Vec<(f64, f64)> = rs
            .iter()
            .map(|r| {
                (
                    r.baseline_instr_per_packet().unwrap_or(0.0),
                    r.server_instr_per_packet().unwrap_or(0.0),
                )
            })
            .collect();
        let top = vals
            .iter()
            .flat_map(|(a, b)| [*a, *b])
            .fold(10.0f64, f64::max)
            * 40.0; // headroom for the legend
        let n = rs.len() as u32;
        let names: Vec<String> = rs.iter().map(|r| r.nf.clone()).collect();
        let mut chart = ChartBuilder::on(panel)
            .caption(
                format!("server instructions per packet: {workload}"),
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(
                (0..n.saturating_sub(1).max(1)).into_segmented(),
                (FLOOR..top).log_scale(),
            )
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(names.len())
            .x_label_formatter(&|x| match x {
                SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .y_label_formatter(&|v| number(*v))
            .y_desc("instructions / input packet (log)")
            .draw()
            .map_err(err)?;
        // Baseline on the left half of the NF's segment, offloaded on the right half.
        let bar = |i: usize, v: f64, left: bool, color: RGBColor| {
            let i = i as u32;
            let (x0, x1) = if left {
                (SegmentValue::Exact(i), SegmentValue::CenterOf(i))
            } else {
                (SegmentValue::CenterOf(i), SegmentValue::Exact(i + 1))
            };
            let mut r = Rectangle::new([(x0, FLOOR), (x1, v.max(FLOOR))], color.filled());
            r.set_margin(0, 0, if left { 6 } else { 1 }, if left { 1 } else { 6 });
            r
        };
        chart
            .draw_series(
                vals.iter()
                    .enumerate()
                    .map(|(i, (b, _))| bar(i, *b, true, BASE)),
            )
            .map_err(err)?
            .label("baseline (every packet on the server)")
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], BASE.filled()));
        chart
            .draw_series(
                vals.iter()
                    .enumerate()
                    .map(|(i, (_, s))| bar(i, *s, false, OFFL)),
            )
            .map_err(err)?
            .label("offloaded server")
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], OFFL.filled()));
        chart
            .draw_series(
                vals.iter()
                    .enumerate()
                    .filter(|(_, (_, s))| *s <= 0.0)
                    .map(|(i, _)| {
                        Text::new(
                            "0",
                            (SegmentValue::CenterOf(i as u32), FLOOR * 1.5),
                            ("sans-serif", 14).into_font().color(&OFFL),
                        )
                    }),
            )
            .map_err(err)?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(err)
    })
}

/// Lines: share of each flow-size class's packets that stayed on the switch, per NF.
pub fn fast_path_by_flow_size(results: &[BenchResult], path: &Path) -> Result<(), BenchError> {
    per_workload(results, path, |workload, rs, panel| {
        // The legend gets its own column beside the plot, so it covers no line; lines are drawn
        // widest first, so NFs on the same values (every one at 100%) stay visible as nested
        // bands; the y range leaves room above 100% and below 0%.
        let (w, _) = panel.dim_in_pixel();
        let (plot, legend) = panel.split_horizontally(w * 7 / 10);
        let right = rs
            .iter()
            .flat_map(|r| r.flows.iter().map(|b| b.max as f64))
            .fold(2.0f64, f64::max)
            * 1.5;
        let mut chart = ChartBuilder::on(&plot)
            .caption(
                format!("fast-path share by flow size: {workload}"),
                ("sans-serif", 16),
            )
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d((1.0..right).log_scale(), -4.0..104.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_label_formatter(&|v| number(*v))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .x_desc("flow size (packets, log)")
            .y_desc("% of packets on the switch only")
            .draw()
            .map_err(err)?;
        let n = rs.len() as u32;
        for (i, r) in rs.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let stroke = 2 + 2 * (n - 1 - i as u32).min(6);
            let points: Vec<(f64, f64)> = r
                .flows
                .iter()
                .filter(|b| b.packets > 0)
                .map(|b| {
                    (
                        ((b.min * b.max) as f64).sqrt().max(1.0),
                        100.0 * b.fast_path as f64 / b.packets as f64,
                    )
                })
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(stroke)))
                .map_err(err)?;
            chart
                .draw_series(
                    points
                        .into_iter()
                        .map(|p| Circle::new(p, 3, color.filled())),
                )
                .map_err(err)?;
            let y = 40 + 20 * i as i32;
            legend
                .draw(&PathElement::new(
                    vec![(8, y), (32, y)],
                    color.stroke_width(stroke.min(8)),
                ))
                .map_err(err)?;
            legend
                .draw(&Text::new(
                    r.nf.clone(),
                    (38, y - 7),
                    ("sans-serif", 13).into_font(),
                ))
                .map_err(err)?;
        }
        Ok(())
    })
}

/// Lines: the server's share of packets per rebalance interval over the run, one line per
/// Zipf exponent and hotness (promotion solid, none dashed by colour pairs), one panel per
/// partial-map benchmark.
pub fn partial_server_share(
    benches: &[crate::partial::PartialBench],
    path: &Path,
) -> Result<(), BenchError> {
    let width = 620 * benches.len().max(1) as u32;
    let root = SVGBackend::new(path, (width, 440)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let panels = root.split_evenly((1, benches.len().max(1)));
    for (b, panel) in benches.iter().zip(panels.iter()) {
        let right = b
            .runs
            .iter()
            .flat_map(|r| r.series.iter().map(|p| p.0))
            .max()
            .unwrap_or(1)
            .max(1) as f64;
        let mut chart = ChartBuilder::on(panel)
            .caption(
                match b.entries_share {
                    Some(f) => format!(
                        "{} `{}`: switch table {:.0}% of the keys",
                        b.nf,
                        b.map,
                        100.0 * f
                    ),
                    None => format!("{} `{}`: {} switch entries", b.nf, b.map, b.switch_entries),
                },
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..right, (0.01f64..100.0).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_label_formatter(&|v| format!("{:.0}k", v / 1000.0))
            .y_label_formatter(&|v| number(*v))
            .x_desc("packets")
            .y_desc("% of packets on the server (log)")
            .draw()
            .map_err(err)?;
        let mut alphas: Vec<f64> = b.runs.iter().map(|r| r.alpha).collect();
        alphas.sort_by(f64::total_cmp);
        alphas.dedup();
        for r in &b.runs {
            let i = alphas.iter().position(|a| *a == r.alpha).unwrap_or(0);
            let color = Palette99::pick(i).to_rgba();
            let style = match r.hotness.as_str() {
                "off" => color.mix(0.45).stroke_width(1),
                "counters" => color.mix(0.75).stroke_width(1),
                _ => color.stroke_width(2),
            };
            let points: Vec<(f64, f64)> = r
                .series
                .iter()
                .map(|&(x, s)| (x as f64, (100.0 * s).max(0.01)))
                .collect();
            chart
                .draw_series(LineSeries::new(points, style))
                .map_err(err)?
                .label(format!(
                    "α {} {}",
                    r.alpha,
                    match r.hotness.as_str() {
                        "off" => "no promotion",
                        "counters" => "hit-counter promotion",
                        _ => "count-min promotion",
                    }
                ))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], style));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
    }
    root.present().map_err(err)
}
