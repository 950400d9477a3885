"""umbench's scripts: umb-run, umb-compare, umb-tune and umb-plot are thin
commands over this package (docs/decisions.md, "The scripts' package").

Each module owns one thing:
  cli       what every command shares: one-line errors, exit statuses, option checks
  results   the results folder: its only reader and only writer
  stats     medians, order-statistic intervals, verdicts, their control over a table
  findings  findings over a folder's results
  compare   comparisons between sides, and the umb-compare command
  plot      pictures, and the umb-plot command
  launch    finding the launcher and the programs, running one program
  sets      the named sets of benchmarks and buffer pairs
  run       interleaved rounds, and the umb-run command
  installed what the installed MPI and UCX know
  tune      the explorer, umb-tune; tune_rank the order of its settings; tune_plan its budget and
            race; tune_report its report
"""
