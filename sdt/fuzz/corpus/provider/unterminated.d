provider p { probe x(char c = 'a', "s"); 
