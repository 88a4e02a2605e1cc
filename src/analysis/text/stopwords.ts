/** About 150 English function words, dropped from content tokens (§1.2). */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each either else even ever few for from ' +
    'further had has have having he her here hers herself him himself his how however i if in into is it its ' +
    'itself just let me might more most much must my myself neither no nor not now of off on once one only ' +
    'or other others ought our ours ourselves out over own per quite rather same shall she should so some ' +
    'such than that the their theirs them themselves then there these they this those though through thus ' +
    'to too under until up upon us very via was we were what when where whether which while who whom whose ' +
    'why will with within without would yet you your yours yourself yourselves s t d ll m re ve don doesn ' +
    'didn isn aren wasn weren won wouldn couldn shouldn etc e.g i.e vs'
  ).split(' '),
);
