// Statistics and JSON output of the CardStock conformance runner.
// Copyright (C) the CardStock authors and the contributors of this project.
// GNU General Public License version 3 or later: see LICENSE in this folder.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using CardStock.FreezeFrame;

namespace CardStock.Conformance
{
    /// <summary>One game played: how it ended, its decisions (seat, options) and its scores.</summary>
    public class GameRecord
    {
        public string Ending;
        public string Error;
        public int Players;
        public int Choices;
        public List<Tuple<int, int>> Decisions = new List<Tuple<int, int>>();
        /// <summary>(score, seat) sorted best first, as GameIterator.ProcessScore returns them.</summary>
        public List<Tuple<int, int>> Results;
        public string Direction;

        /// <summary>The seats tied for the best score (Experimenter's playerFirst).</summary>
        public List<int> Winners()
        {
            var w = new List<int>();
            for (int j = 0; j < Results.Count; ++j)
            {
                if (j == 0 || Results[j].Item1 == Results[j - 1].Item1) w.Add(Results[j].Item2);
                else break;
            }
            return w;
        }
    }

    /// <summary>The reference statistics' fields over the games played.</summary>
    public class Stats
    {
        private readonly List<GameRecord> games = new List<GameRecord>();

        public void Add(GameRecord r) { games.Add(r); }

        public void Write(TextWriter w, string file, long seed)
        {
            var done = games.Where(g => g.Ending == "completed").ToList();
            int players = games.Select(g => g.Players).DefaultIfEmpty(0).Max();
            var choices = done.Select(g => (double)g.Choices).ToList();
            var decisions = done.SelectMany(g => g.Decisions).ToList();
            var bySeat = new double[players];
            foreach (var d in decisions) if (d.Item1 < players) bySeat[d.Item1] += 1;
            var wins = new double[players];
            var scores = Enumerable.Range(0, players).Select(_ => new List<double>()).ToList();
            foreach (var g in done)
            {
                var winners = g.Winners();
                foreach (int s in winners) wins[s] += 1.0 / winners.Count;
                foreach (var t in g.Results) scores[t.Item2].Add(t.Item1);
            }
            var errors = games.Where(g => g.Error != null).GroupBy(g => g.Error).OrderByDescending(x => x.Count())
                .Select(x => Json.Str(x.Key) + ": " + x.Count());
            var o = new List<string>
            {
                "\"file\": " + Json.Str(Path.GetFileName(file)),
                "\"seed\": " + seed,
                "\"players\": " + players,
                "\"games_run\": " + games.Count,
                "\"completed\": " + done.Count,
                "\"failures_choice_limit\": " + games.Count(g => g.Ending == "choice_limit"),
                "\"failures_exception\": " + games.Count(g => g.Ending == "exception"),
                "\"exceptions\": {" + string.Join(", ", errors) + "}",
                "\"choices_mean\": " + Json.Num(Mean(choices)),
                "\"choices_std\": " + Json.Num(Std(choices)),
                "\"choices_min\": " + (choices.Count > 0 ? choices.Min().ToString(CultureInfo.InvariantCulture) : "null"),
                "\"choices_max\": " + (choices.Count > 0 ? choices.Max().ToString(CultureInfo.InvariantCulture) : "null"),
                "\"decisions\": " + decisions.Count,
                "\"options_per_decision_mean\": " + Json.Num(Mean(decisions.Select(d => (double)d.Item2).ToList())),
                "\"options_per_decision_se\": " + Json.Num(RatioSe(done)),
                "\"decision_share_by_seat\": " + Json.List(bySeat.Select(x => decisions.Count > 0 ? x / decisions.Count : double.NaN)),
                "\"win_share_tie_split\": " + Json.List(wins.Select(x => done.Count > 0 ? x / done.Count : double.NaN)),
                "\"score_mean\": " + Json.List(scores.Select(Mean)),
                "\"score_std\": " + Json.List(scores.Select(Std)),
                "\"scoring_direction\": " + Json.Str(done.Count > 0 ? done[0].Direction : null),
            };
            w.WriteLine("{" + string.Join(", ", o) + "}");
        }

        /// <summary>The standard error of the pooled options-per-decision mean, games as clusters.</summary>
        static double RatioSe(List<GameRecord> done)
        {
            int n = done.Count;
            double total = done.Sum(g => g.Decisions.Count);
            if (n < 2 || total == 0) return 0.0;
            double ratio = done.Sum(g => g.Decisions.Sum(d => (double)d.Item2)) / total;
            double residual = done.Sum(g => Math.Pow(g.Decisions.Sum(d => (double)d.Item2) - ratio * g.Decisions.Count, 2)) / (n - 1);
            return Math.Sqrt(residual / n) / (total / n);
        }

        static double Mean(List<double> xs)
        {
            return xs.Count == 0 ? double.NaN : xs.Average();
        }

        /// <summary>The sample standard deviation (n - 1), as the reference's figures.</summary>
        static double Std(List<double> xs)
        {
            if (xs.Count < 2) return xs.Count == 1 ? 0.0 : double.NaN;
            double m = xs.Average();
            return Math.Sqrt(xs.Sum(x => (x - m) * (x - m)) / (xs.Count - 1));
        }
    }

    /// <summary>An option's text: what each of its actions would do, in the transcript's words.</summary>
    public static class Describe
    {
        public static string Option(GameActionCollection option)
        {
            return string.Join("; ", option.Select(Action));
        }

        static string Action(GameAction a)
        {
            try
            {
                return a.Describe();
            }
            catch (Exception e)
            {
                return a.ToString() + " (" + e.GetType().Name + ")";
            }
        }
    }

    /// <summary>The few JSON values the runner prints.</summary>
    public static class Json
    {
        public static string Str(string s)
        {
            if (s == null) return "null";
            var b = new StringBuilder("\"");
            foreach (char c in s)
            {
                switch (c)
                {
                    case '"': b.Append("\\\""); break;
                    case '\\': b.Append("\\\\"); break;
                    case '\n': b.Append("\\n"); break;
                    case '\r': b.Append("\\r"); break;
                    case '\t': b.Append("\\t"); break;
                    default:
                        if (c < 0x20) b.Append("\\u").Append(((int)c).ToString("x4"));
                        else b.Append(c);
                        break;
                }
            }
            return b.Append('"').ToString();
        }

        public static string Num(double x)
        {
            if (double.IsNaN(x) || double.IsInfinity(x)) return "null";
            return x.ToString("R", CultureInfo.InvariantCulture);
        }

        public static string List(IEnumerable<double> xs)
        {
            return "[" + string.Join(", ", xs.Select(Num)) + "]";
        }
    }
}
