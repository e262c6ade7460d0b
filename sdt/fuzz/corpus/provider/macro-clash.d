provider p { probe a__b(); probe a_b(); };
