// The notifications feature's surface for other screens: the Silence button.
export { SilenceButton, silencePath, type SilenceTarget } from './silences/SilenceButton';
