//! `kamisado kamon survey plot`: the survey's headline as a chart (SVG, drawn by the
//! plotters crate): how often the side to move wins, and what a layout costs, against the
//! placements made before the surveyed position, from 12 down to the empty board.
//!
//! The x axis always runs from 0 to the largest K surveyed (at least 12), so the placements
//! no survey has reached yet are visible as what they are: empty. The empty board itself
//! (K = 0) comes from the whole-games file (`--whole`, see `kamon whole`), drawn in its
//! own colour: those layouts are solved by units, not by the survey's one search each.

use std::collections::BTreeMap;
use std::path::PathBuf;

use plotters::prelude::*;
use serde::Serialize;

use super::survey_file::{Run, SurveyFile};
use super::SurveyPlotArgs;
use crate::failure::{Failure, Result};
use crate::output::{check_output, write_atomically, OutputKind};
use crate::report::{self, Report};
use kamisado_analysis::survey_stats::Summary;
use kamisado_analysis::whole_file::WholeFile;

/// One point of the chart: the layouts surveyed after K placements, added up.
#[derive(Serialize)]
struct Point {
    after: u32,
    layouts: u64,
    solved: u64,
    /// Share of solved layouts won by the side to move, with its 95% Wilson interval.
    side_to_move_wins: f64,
    low: f64,
    high: f64,
    draws: f64,
    median_nodes: Option<f64>,
    max_nodes: Option<f64>,
}

#[derive(Serialize)]
struct PlotReport {
    out: String,
    points: Vec<Point>,
    /// The empty board's point, from the whole-games file.
    #[serde(skip_serializing_if = "Option::is_none")]
    whole: Option<Point>,
}

impl Report for PlotReport {
    fn text(&self, _colour: bool) -> String {
        let mut out = format!("wrote {}\n", self.out);
        for p in self.whole.iter().chain(&self.points) {
            out.push_str(&format!(
                "  K = {:2}: {} of {} layouts solved, side to move wins {:.1}% ({:.1}-{:.1}%), median {} nodes\n",
                p.after,
                p.solved,
                p.layouts,
                100.0 * p.side_to_move_wins,
                100.0 * p.low,
                100.0 * p.high,
                p.median_nodes.map_or("-".to_owned(), |n| format!("{n:.0}"))
            ));
        }
        out
    }
}

/// The runs of all the files, joined by K (runs of other seeds with the same K add up).
fn points(files: &[SurveyFile]) -> Vec<Point> {
    let mut by_after: BTreeMap<u32, Run> = BTreeMap::new();
    for run in files.iter().flat_map(|f| &f.runs) {
        let joined = by_after.entry(run.after).or_insert_with(|| Run {
            seed: run.seed,
            after: run.after,
            summary: None,
            entries: Vec::new(),
        });
        joined.entries.extend(run.entries.iter().cloned());
    }
    by_after
        .values()
        .map(|run| {
            let s = Summary::of(run);
            Point {
                after: run.after,
                layouts: s.layouts,
                solved: s.solved,
                side_to_move_wins: s.side_to_move_wins.share,
                low: s.side_to_move_wins.low,
                high: s.side_to_move_wins.high,
                draws: s.draws.share,
                median_nodes: s.nodes.as_ref().map(|n| n.median),
                max_nodes: s.nodes.as_ref().map(|n| n.max),
            }
        })
        .collect()
}

/// The empty board's point: the whole-games file's proven layouts (Black, the first
/// player, is the side to move).
fn whole_point(file: &WholeFile) -> Point {
    let s = file.summary();
    Point {
        after: 0,
        layouts: s.layouts,
        solved: s.proven,
        side_to_move_wins: s.first_player_wins.share,
        low: s.first_player_wins.low,
        high: s.first_player_wins.high,
        draws: s.draws.share,
        // The nodes of the units each value's proof rests on, not of every unit searched:
        // a layout whose every first cell was asked for too would otherwise cost more
        // than one whose value alone was, for the same value.
        median_nodes: s.proof_nodes.as_ref().map(|n| n.median),
        max_nodes: s.proof_nodes.as_ref().map(|n| n.max),
    }
}

fn draw(
    points: &[Point],
    whole: Option<&Point>,
    svg: &mut String,
) -> std::result::Result<(), String> {
    let last = points.iter().map(|p| p.after).max().unwrap_or(12).max(12);
    let root = SVGBackend::with_string(svg, (980, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (left, right) = root.split_horizontally(490);
    let caption = ("sans-serif", 17);
    let x_range = -0.5f64..(last as f64 + 0.5);

    let mut share = ChartBuilder::on(&left)
        .caption("Kamon: who wins after K random placements", caption)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x_range.clone(), 0f64..1f64)
        .map_err(|e| e.to_string())?;
    share
        .configure_mesh()
        .x_desc("placements made (K); 0 = the empty board")
        .y_desc("share of layouts")
        .y_label_formatter(&|y| format!("{:.0}%", 100.0 * y))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()
        .map_err(|e| e.to_string())?;
    let blue = RGBColor(31, 90, 160);
    share
        .draw_series(points.iter().map(|p| {
            ErrorBar::new_vertical(
                p.after as f64,
                p.low,
                p.side_to_move_wins,
                p.high,
                blue.filled(),
                8,
            )
        }))
        .map_err(|e| e.to_string())?
        .label("side to move wins (95% Wilson interval)")
        .legend(move |(x, y)| Circle::new((x, y), 4, blue.filled()));
    share
        .draw_series(LineSeries::new(
            points.iter().map(|p| (p.after as f64, p.side_to_move_wins)),
            blue,
        ))
        .map_err(|e| e.to_string())?;
    let grey = RGBColor(120, 120, 120);
    share
        .draw_series(
            points
                .iter()
                .map(|p| Circle::new((p.after as f64, p.draws), 3, grey.filled())),
        )
        .map_err(|e| e.to_string())?
        .label("draws")
        .legend(move |(x, y)| Circle::new((x, y), 3, grey.filled()));
    let green = RGBColor(30, 130, 60);
    if let Some(p) = whole.filter(|p| p.solved > 0) {
        share
            .draw_series(std::iter::once(ErrorBar::new_vertical(
                0.0,
                p.low,
                p.side_to_move_wins,
                p.high,
                green.filled(),
                8,
            )))
            .map_err(|e| e.to_string())?
            .label(format!(
                "empty board: first player wins ({} layout{})",
                p.solved,
                if p.solved == 1 { "" } else { "s" }
            ))
            .legend(move |(x, y)| Circle::new((x, y), 4, green.filled()));
        // Its draws, in the survey's grey: the legend's "draws" covers both.
        share
            .draw_series(std::iter::once(Circle::new(
                (0.0, p.draws),
                3,
                grey.filled(),
            )))
            .map_err(|e| e.to_string())?;
    }
    // In the band no survey has reached (K = 1 to 7, about half-way up), where it hides
    // no point.
    share
        .configure_series_labels()
        .position(SeriesLabelPosition::Coordinate(70, 190))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .draw()
        .map_err(|e| e.to_string())?;

    // Where no survey has been: said on the chart, not left to guess.
    let first = points.iter().map(|p| p.after).min().unwrap_or(0);
    let from = if whole.is_some_and(|p| p.solved > 0) {
        1
    } else {
        0
    };
    if first > from {
        let note = if from == 0 {
            format!("K < {first}: not surveyed yet")
        } else {
            format!("K = 1 to {}: not surveyed yet", first - 1)
        };
        share
            .draw_series(std::iter::once(Text::new(
                note,
                (from as f64, 0.12),
                ("sans-serif", 13).into_font().color(&grey),
            )))
            .map_err(|e| e.to_string())?;
    }
    let max_nodes = points
        .iter()
        .chain(whole)
        .filter_map(|p| p.max_nodes)
        .fold(1e3, f64::max);
    let mut cost = ChartBuilder::on(&right)
        .caption("and what a layout costs to solve", caption)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x_range, (1e2f64..max_nodes * 10.0).log_scale())
        .map_err(|e| e.to_string())?;
    cost.configure_mesh()
        .x_desc("placements made (K); 0 = the empty board")
        .y_desc("nodes per layout")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0e}"))
        .draw()
        .map_err(|e| e.to_string())?;
    let red = RGBColor(180, 50, 40);
    cost.draw_series(LineSeries::new(
        points
            .iter()
            .filter_map(|p| Some((p.after as f64, p.median_nodes?))),
        red,
    ))
    .map_err(|e| e.to_string())?
    .label("median")
    .legend(move |(x, y)| PathElement::new(vec![(x - 8, y), (x + 8, y)], red));
    cost.draw_series(points.iter().filter_map(|p| {
        Some(Circle::new(
            (p.after as f64, p.median_nodes?),
            4,
            red.filled(),
        ))
    }))
    .map_err(|e| e.to_string())?;
    cost.draw_series(
        points
            .iter()
            .filter_map(|p| Some(TriangleMarker::new((p.after as f64, p.max_nodes?), 5, red))),
    )
    .map_err(|e| e.to_string())?
    .label("largest")
    .legend(move |(x, y)| TriangleMarker::new((x, y), 5, red));
    if let Some(p) = whole {
        if let (Some(median), Some(max)) = (p.median_nodes, p.max_nodes) {
            cost.draw_series([
                Circle::new((0.0, median), 4, green.filled()).into_dyn(),
                TriangleMarker::new((0.0, max), 5, green).into_dyn(),
            ])
            .map_err(|e| e.to_string())?
            .label("empty board (the proof's units, summed)")
            .legend(move |(x, y)| Circle::new((x, y), 4, green.filled()));
        }
    }
    cost.configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}

pub fn run(args: SurveyPlotArgs) -> Result<()> {
    check_output(&args.out, OutputKind::Text)?;
    let files = args
        .files
        .iter()
        .map(|path: &PathBuf| super::survey_file::load(path))
        .collect::<Result<Vec<_>>>()?;
    let points = points(&files);
    let whole = args
        .whole
        .as_deref()
        .map(super::whole_games::load)
        .transpose()?
        .map(|f| whole_point(&f));
    if points.is_empty() {
        return Err(Failure::input(
            "the survey files hold no runs: nothing to plot",
        ));
    }
    let mut svg = String::new();
    draw(&points, whole.as_ref(), &mut svg)
        .map_err(|e| Failure::internal(format!("drawing the chart: {e}")))?;
    write_atomically(&args.out, svg.as_bytes())?;
    let report = PlotReport {
        out: args.out.display().to_string(),
        points,
        whole,
    };
    report::print(&report, args.output.json, false);
    Ok(())
}
